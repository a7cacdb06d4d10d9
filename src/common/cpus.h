// How many CPUs this process may run on: the one answer every thread-count default uses.
#ifndef TFQ_COMMON_CPUS_H_
#define TFQ_COMMON_CPUS_H_

namespace tfq {

// The CPUs in this process's affinity mask (what `taskset`, cgroups' cpusets and Slurm grant),
// which can be fewer than the machine has; at least 1.
int UsableCpus();

}  // namespace tfq

#endif  // TFQ_COMMON_CPUS_H_

#include "pipeline/stream_state.h"

#include <nlohmann/json.hpp>

#include <utility>

namespace tfq::pipeline {

StreamMirror::StreamMirror(size_t cycle_length, Shard record_shard, Shard padding_shard,
                           size_t shuffle_size)
    : record_shard_(record_shard), padding_shard_(padding_shard), shuffle_size_(shuffle_size) {
  state_.interleave.slots.resize(cycle_length);
}

uint64_t StreamMirror::Apply(const StreamEvent& e) {
  StreamState& s = state_;
  InterleavePosition& cycle = s.interleave;
  switch (e.kind) {
    case StreamEvent::Kind::kEpoch:
      s.epoch = e.a;
      s.in_epoch = true;
      s.padding = e.b != 0;
      if (!s.padding) s.epoch_records = 0;
      for (SlotPosition& slot : cycle.slots) slot = SlotPosition();
      cycle.next_in_order = 0;
      cycle.cycle_index = 0;
      cycle.block_index = 0;
      s.input_index = 0;
      s.input_done = false;
      s.shuffle_buffer.clear();
      has_replacement_ = false;
      break;
    case StreamEvent::Kind::kAssign:
      cycle.slots[e.slot] = SlotPosition{e.file, 0, 0};
      cycle.next_in_order = e.a;
      cycle.cycle_index = e.cycle_index;
      cycle.block_index = e.block_index;
      break;
    case StreamEvent::Kind::kTake: {
      if (e.slot != kNoSlot) {
        SlotPosition& slot = cycle.slots[e.slot];
        slot.file = e.source.file;
        slot.next_index = e.source.index + 1;
        slot.next_offset = e.source.offset + e.a;
        cycle.cycle_index = e.cycle_index;
        cycle.block_index = e.block_index;
      }
      const uint64_t index = s.input_index++;
      const Shard& shard = s.padding ? padding_shard_ : record_shard_;
      if (index % shard.count != shard.index || shuffle_size_ == 0) break;
      // The stages fill the buffer first; once it is full, a kept record is the replacement
      // for the next delivery.
      if (s.shuffle_buffer.size() < shuffle_size_) {
        s.shuffle_buffer.push_back(e.source);
      } else {
        has_replacement_ = true;
        replacement_ = e.source;
      }
      break;
    }
    case StreamEvent::Kind::kInputEnd:
      s.input_done = true;
      break;
    case StreamEvent::Kind::kOutput:
      ++s.epoch_records;
      if (shuffle_size_ != 0) {
        std::vector<RecordSource>& buffer = s.shuffle_buffer;
        if (e.b != 0) {
          buffer[e.slot] = replacement_;
          has_replacement_ = false;
        } else {
          if (e.slot + 1 != buffer.size()) buffer[e.slot] = buffer.back();
          buffer.pop_back();
        }
        s.shuffle_rng = e.rng;
      }
      return e.a;
  }
  return kNotOutput;
}

// --- JSON ---

namespace {

using nlohmann::json;

constexpr int kStateVersion = 1;

json SourceToJson(const RecordSource& s) {
  return json::array({s.file, s.epoch, s.index, s.offset, s.padding ? 1 : 0});
}

bool SourceFromJson(const json& j, RecordSource* s) {
  if (!j.is_array() || j.size() != 5) return false;
  for (const json& v : j) {
    if (!v.is_number_unsigned()) return false;
  }
  s->file = j[0].get<uint32_t>();
  s->epoch = j[1].get<uint32_t>();
  s->index = j[2].get<uint64_t>();
  s->offset = j[3].get<uint64_t>();
  s->padding = j[4].get<uint64_t>() != 0;
  return true;
}

}  // namespace

std::string PipelineStateToJson(const PipelineState& state) {
  const StreamState& s = state.stream;
  json slots = json::array();
  for (const SlotPosition& slot : s.interleave.slots) {
    if (slot.file == kNoFile) {
      slots.push_back(nullptr);
    } else {
      slots.push_back(json::array({slot.file, slot.next_index, slot.next_offset}));
    }
  }
  json buffer = json::array();
  for (const RecordSource& source : s.shuffle_buffer) buffer.push_back(SourceToJson(source));
  json pending = json::array();
  for (const std::vector<RecordSource>& group : state.pending) {
    json rows = json::array();
    for (const RecordSource& source : group) rows.push_back(SourceToJson(source));
    pending.push_back(std::move(rows));
  }
  json j = {
      {"tfq_pipeline_state", kStateVersion},
      // A string: JSON readers (JavaScript's among them) lose integers beyond 2^53.
      {"fingerprint", std::to_string(state.fingerprint)},
      {"batches", state.batches},
      {"epoch", s.epoch},
      {"in_epoch", s.in_epoch},
      {"done", s.done},
      {"slots", std::move(slots)},
      {"next_in_order", s.interleave.next_in_order},
      {"cycle_index", s.interleave.cycle_index},
      {"block_index", s.interleave.block_index},
      {"input_index", s.input_index},
      {"input_done", s.input_done},
      {"epoch_records", s.epoch_records},
      {"padding", s.padding},
      {"shuffle_buffer", std::move(buffer)},
      {"shuffle_rng", std::to_string(s.shuffle_rng)},
      {"pending", std::move(pending)},
  };
  return j.dump();
}

Result<PipelineState> PipelineStateFromJson(const std::string& text) {
  auto bad = [](const std::string& what) {
    return Status::InvalidArgument("pipeline state: " + what +
                                   "; pass the text Pipeline::SaveState returned, unchanged");
  };
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
  if (!j.contains("tfq_pipeline_state") || j["tfq_pipeline_state"] != kStateVersion) {
    return bad("not a version " + std::to_string(kStateVersion) + " tfq pipeline state");
  }
  PipelineState state;
  StreamState& s = state.stream;
  try {
    state.fingerprint = std::stoull(j.at("fingerprint").get<std::string>());
    s.shuffle_rng = std::stoull(j.at("shuffle_rng").get<std::string>());
    state.batches = j.at("batches").get<uint64_t>();
    s.epoch = j.at("epoch").get<uint64_t>();
    s.in_epoch = j.at("in_epoch").get<bool>();
    s.done = j.at("done").get<bool>();
    for (const json& slot : j.at("slots")) {
      if (slot.is_null()) {
        s.interleave.slots.emplace_back();
        continue;
      }
      if (!slot.is_array() || slot.size() != 3) return bad("a slot is not [file, index, offset]");
      s.interleave.slots.push_back(
          SlotPosition{slot[0].get<uint32_t>(), slot[1].get<uint64_t>(), slot[2].get<uint64_t>()});
    }
    s.interleave.next_in_order = j.at("next_in_order").get<uint64_t>();
    s.interleave.cycle_index = j.at("cycle_index").get<uint64_t>();
    s.interleave.block_index = j.at("block_index").get<uint64_t>();
    s.input_index = j.at("input_index").get<uint64_t>();
    s.input_done = j.at("input_done").get<bool>();
    s.epoch_records = j.at("epoch_records").get<uint64_t>();
    s.padding = j.at("padding").get<bool>();
    for (const json& source : j.at("shuffle_buffer")) {
      if (!SourceFromJson(source, &s.shuffle_buffer.emplace_back())) return bad("a bad buffered record");
    }
    for (const json& group : j.at("pending")) {
      if (!group.is_array()) return bad("a pending group is not a list");
      std::vector<RecordSource>& rows = state.pending.emplace_back();
      for (const json& source : group) {
        if (!SourceFromJson(source, &rows.emplace_back())) return bad("a bad pending record");
      }
    }
  } catch (const std::exception& e) {
    return bad(std::string("a field is missing or of the wrong type (") + e.what() + ")");
  }
  return state;
}

}  // namespace tfq::pipeline

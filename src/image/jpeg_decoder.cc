#include "image/jpeg_decoder.h"

#include <turbojpeg.h>

#include <cstring>
#include <string>

namespace tfq::image {
namespace {

// Scans beyond 500 are refused: a crafted progressive file can otherwise take minutes.
constexpr int kDecodeFlags = TJFLAG_LIMITSCANS;

tjhandle H(void* h) { return static_cast<tjhandle>(h); }

// TurboJPEG prefixes its own messages with the function name ("tjDecompress2(): ..."); the
// caller does not care which function it was.
std::string CleanMessage(const char* msg) {
  std::string m = msg ? msg : "unknown error";
  size_t p = m.find("(): ");
  if (p != std::string::npos && m.compare(0, 2, "tj") == 0) m.erase(0, p + 4);
  return m;
}

bool Contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Whether a libjpeg warning means that image data was lost (see the header comment).
bool WarningLosesData(const std::string& m) {
  if (Contains(m, "extraneous bytes before marker")) return !Contains(m, "marker 0xd9");
  return Contains(m, "Premature end") || Contains(m, "premature end") || Contains(m, "bad Huffman code") ||
         Contains(m, "bad arithmetic code") || Contains(m, "instead of RST") || Contains(m, "must resync") ||
         Contains(m, "Corrupt JPEG data: found marker");
}

Status WarningError(const std::string& m) {
  if (m == "Premature end of JPEG file") return Status::Corruption("truncated JPEG: premature end of data");
  std::string detail = m;
  const std::string prefix = "Corrupt JPEG data: ";
  if (detail.compare(0, prefix.size(), prefix) == 0) detail.erase(0, prefix.size());
  return Status::Corruption("corrupt JPEG data: " + detail);
}

Status FatalError(const std::string& m) {
  if (Contains(m, "Unsupported") || Contains(m, "not supported")) return Status::InvalidData("JPEG: " + m);
  return Status::Corruption("corrupt JPEG: " + m);
}

bool ToSubsampling(int tjsamp, Subsampling* s) {
  switch (tjsamp) {
    case TJSAMP_444: *s = Subsampling::k444; return true;
    case TJSAMP_422: *s = Subsampling::k422; return true;
    case TJSAMP_420: *s = Subsampling::k420; return true;
    case TJSAMP_GRAY: *s = Subsampling::kGray; return true;
    case TJSAMP_440: *s = Subsampling::k440; return true;
    case TJSAMP_411: *s = Subsampling::k411; return true;
    default: return false;
  }
}

}  // namespace

JpegDecoder::JpegDecoder() = default;

JpegDecoder::~JpegDecoder() {
  if (handle_) tjDestroy(H(handle_));
}

Status JpegDecoder::ResetHandle() {
  if (handle_) tjDestroy(H(handle_));
  handle_ = tjInitDecompress();
  if (!handle_) {
    return Status::ResourceExhausted("cannot create a TurboJPEG decompressor: " +
                                     CleanMessage(tjGetErrorStr2(nullptr)));
  }
  return Status::OK();
}

template <typename Call>
Status JpegDecoder::Run(Call call, bool allow_partial, bool* partial) {
  if (!handle_) TFQ_RETURN_IF_ERROR(ResetHandle());
  *partial = false;
  if (call(H(handle_), kDecodeFlags | TJFLAG_STOPONWARNING) == 0) return Status::OK();
  bool warning = tjGetErrorCode(H(handle_)) == TJERR_WARNING;
  std::string first = CleanMessage(tjGetErrorStr2(H(handle_)));
  TFQ_RETURN_IF_ERROR(ResetHandle());
  if (!warning) return FatalError(first);
  bool lost = WarningLosesData(first);
  if (lost && !allow_partial) return WarningError(first);
  // The first warning is acceptable: decode again, to the end this time.
  if (call(H(handle_), kDecodeFlags) != 0) {
    warning = tjGetErrorCode(H(handle_)) == TJERR_WARNING;
    std::string last = CleanMessage(tjGetErrorStr2(H(handle_)));
    TFQ_RETURN_IF_ERROR(ResetHandle());
    if (!warning) return FatalError(last);
    if (WarningLosesData(last)) {
      if (!allow_partial) return WarningError(last);
      lost = true;
    }
  }
  *partial = lost;
  return Status::OK();
}

bool JpegDecoder::CanDecodeToYuv(std::string_view bytes, const JpegInfo& info, Subsampling* subsampling) {
  if (info.color != JpegColor::kYCbCr && info.color != JpegColor::kGray) return false;
  if (!handle_ && !ResetHandle().ok()) return false;
  int w = 0, h = 0, samp = -1, cs = -1;
  if (tjDecompressHeader3(H(handle_), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &w,
                          &h, &samp, &cs) != 0) {
    // Unusual sampling factors, typically; the packed path will decode it or say what is wrong.
    (void)ResetHandle();
    return false;
  }
  return w == info.width && h == info.height && ToSubsampling(samp, subsampling);
}

Status JpegDecoder::DecodeToYuv(std::string_view bytes, const JpegInfo& info, JpegScale scale,
                                bool allow_partial, YuvImage* out, bool* partial) {
  Subsampling s;
  if (!CanDecodeToYuv(bytes, info, &s)) {
    return Status::Internal("JPEG cannot be decoded to YCbCr planes");
  }
  int w = ScaledDim(info.width, scale), h = ScaledDim(info.height, scale);
  out->Reset(w, h, s);
  return Run(
      [&](tjhandle handle, int flags) {
        unsigned char* planes[3] = {};
        int strides[3] = {};
        for (int p = 0; p < out->num_planes(); ++p) {
          planes[p] = out->planes[p].pixels.data();
          strides[p] = out->planes[p].width;
        }
        return tjDecompressToYUVPlanes(handle, reinterpret_cast<const unsigned char*>(bytes.data()),
                                       bytes.size(), planes, w, strides, h, flags);
      },
      allow_partial, partial);
}

Status JpegDecoder::DecodeToPixels(std::string_view bytes, const JpegInfo& info, JpegScale scale,
                                   DecodeFormat format, bool allow_partial, Image* out, bool* partial) {
  bool cmyk_file = info.color == JpegColor::kCmyk || info.color == JpegColor::kYcck;
  if (cmyk_file != (format == DecodeFormat::kCmyk)) {
    return Status::Internal(std::string("cannot decode a ") + JpegColorName(info.color) +
                            " JPEG to this format");
  }
  int pf = format == DecodeFormat::kGray ? TJPF_GRAY : format == DecodeFormat::kRgb ? TJPF_RGB : TJPF_CMYK;
  int w = ScaledDim(info.width, scale), h = ScaledDim(info.height, scale);
  out->Reset(w, h, tjPixelSize[pf]);
  return Run(
      [&](tjhandle handle, int flags) {
        return tjDecompress2(handle, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                             out->pixels.data(), w, static_cast<int>(out->stride()), h, pf, flags);
      },
      allow_partial, partial);
}

Status JpegDecoder::YuvToRgb(const YuvImage& yuv, Image* out) {
  if (!handle_) TFQ_RETURN_IF_ERROR(ResetHandle());
  out->Reset(yuv.width, yuv.height, 3);
  const unsigned char* planes[3] = {};
  int strides[3] = {};
  for (int p = 0; p < yuv.num_planes(); ++p) {
    planes[p] = yuv.planes[p].pixels.data();
    strides[p] = yuv.planes[p].width;
  }
  if (tjDecodeYUVPlanes(H(handle_), planes, strides, static_cast<int>(yuv.subsampling), out->pixels.data(),
                        yuv.width, static_cast<int>(out->stride()), yuv.height, TJPF_RGB, 0) != 0) {
    std::string m = CleanMessage(tjGetErrorStr2(H(handle_)));
    TFQ_RETURN_IF_ERROR(ResetHandle());
    return Status::Internal("YCbCr to RGB conversion failed: " + m);
  }
  return Status::OK();
}

}  // namespace tfq::image

// SigV4 against AWS's published vectors: the aws-sig-v4-test-suite cases (credentials
// AKIDEXAMPLE, region us-east-1, service "service", 2015-08-30T12:36:00Z) and the S3 GetObject
// example of the S3 API reference ("Signature Calculations for the Authorization Header").
#include "io/sigv4.h"

#include <doctest/doctest.h>

#include "io/shared_libraries.h"

namespace tfq {
namespace {

// The signing functions need libcrypto loaded (io/shared_libraries.h).
const bool kCryptoLoaded = LoadNetworkLibraries().ok();

const SigV4Keys kSuiteKeys{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"};
constexpr const char* kSuiteDate = "20150830T123600Z";
const std::string kEmptySha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

TEST_CASE("sigv4: get-vanilla") {
  REQUIRE(kCryptoLoaded);
  SignableRequest r{"GET", "/", {}, {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", kSuiteDate}},
                    kEmptySha};
  std::string signed_headers;
  const std::string creq = CanonicalRequest(r, &signed_headers);
  CHECK(creq ==
        "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
            kEmptySha);
  CHECK(StringToSign(creq, kSuiteDate, "us-east-1", "service") ==
        "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
        "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
  CHECK(SigV4Authorization(r, kSuiteKeys, kSuiteDate, "us-east-1", "service") ==
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
        "SignedHeaders=host;x-amz-date, "
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST_CASE("sigv4: get-vanilla-query-order-key-case (query sorted by name)") {
  SignableRequest r{"GET", "/", {{"Param2", "value2"}, {"Param1", "value1"}},
                    {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", kSuiteDate}}, kEmptySha};
  std::string signed_headers;
  CHECK(CanonicalRequest(r, &signed_headers).find("\nParam1=value1&Param2=value2\n") !=
        std::string::npos);
  CHECK(SigV4Authorization(r, kSuiteKeys, kSuiteDate, "us-east-1", "service") ==
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
        "SignedHeaders=host;x-amz-date, "
        "Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

TEST_CASE("sigv4: post-x-www-form-urlencoded (a body and a content-type)") {
  SignableRequest r{"POST", "/", {},
                    {{"Content-Type", "application/x-www-form-urlencoded"},
                     {"Host", "example.amazonaws.com"},
                     {"X-Amz-Date", kSuiteDate}},
                    Sha256Hex("Param1=value1")};
  CHECK(r.payload_sha256 == "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e");
  CHECK(SigV4Authorization(r, kSuiteKeys, kSuiteDate, "us-east-1", "service") ==
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-date, "
        "Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a");
}

TEST_CASE("sigv4: the S3 reference's GET Object with a Range header") {
  const SigV4Keys keys{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"};
  SignableRequest r{"GET", "/test.txt", {},
                    {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"Range", "bytes=0-9"},
                     {"x-amz-content-sha256", kEmptySha},
                     {"x-amz-date", "20130524T000000Z"}},
                    kEmptySha};
  std::string signed_headers;
  const std::string creq = CanonicalRequest(r, &signed_headers);
  CHECK(signed_headers == "host;range;x-amz-content-sha256;x-amz-date");
  CHECK(StringToSign(creq, "20130524T000000Z", "us-east-1", "s3") ==
        "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
        "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  CHECK(SigV4Authorization(r, keys, "20130524T000000Z", "us-east-1", "s3") ==
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST_CASE("sigv4: URI encoding keeps unreserved bytes, and '/' only in paths") {
  CHECK(UriEncode("a-b_c.d~e/f g+h", true) == "a-b_c.d~e/f%20g%2Bh");
  CHECK(UriEncode("a/b=c", false) == "a%2Fb%3Dc");
  CHECK(UriEncode("\xc3\xa9", true) == "%C3%A9");
}

}  // namespace
}  // namespace tfq

//===- AddressSanitized.h - Whether the unit tests run under ASan ------------===//
//
// kAddressSanitized: true in the ASan + UBSan build (build-asan/, docs/robustness.md), where a few long tests run a
// smaller share of their work (each says what and why).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_ADDRESSSANITIZED_H
#define TILEC_TEST_ADDRESSSANITIZED_H

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitized = true;
#else
constexpr bool kAddressSanitized = false;
#endif
#else
constexpr bool kAddressSanitized = false;
#endif

#endif

//===- ReferenceTest.cpp - Tests for the CPU reference call -----*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Reference.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <vector>

using namespace memopt::runtime;

namespace {

TEST(ReferenceTest, CallsEntryPointWithBuffers) {
  ReferenceLibrary lib;
  Status s = lib.open(MEMOPT_TEST_REFERENCE_LIB, "memopt_test_add");
  ASSERT_TRUE(s.succeeded()) << s.error().message;
  std::vector<float> a(1024), b(1024), out(1024, -1.0f);
  for (int i = 0; i < 1024; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f;
  }
  s = lib.call({a.data(), b.data(), out.data()});
  ASSERT_TRUE(s.succeeded());
  EXPECT_EQ(out[0], 0.5f);
  EXPECT_EQ(out[1023], 1023.5f);
}

TEST(ReferenceTest, PassesAll32PointersInOrder) {
  ReferenceLibrary lib;
  ASSERT_TRUE(lib.open(MEMOPT_TEST_REFERENCE_LIB, "memopt_test_args32")
                  .succeeded());
  std::vector<int32_t> values(31);
  std::vector<int32_t> out(31, -1);
  std::vector<void *> args;
  for (int k = 0; k < 31; ++k) {
    values[k] = 100 + k;
    args.push_back(&values[k]);
  }
  args.push_back(out.data());
  ASSERT_TRUE(lib.call(args).succeeded());
  for (int k = 0; k < 31; ++k)
    EXPECT_EQ(out[k], 100 + k);
  args.push_back(out.data()); // 33 pointers
  Status s = lib.call(args);
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("at most 32"), std::string::npos);
}

TEST(ReferenceTest, MissingLibraryAndSymbol) {
  ReferenceLibrary lib;
  Status s = lib.open("/nonexistent/w1.reference.so", "w1");
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().kind, ErrorKind::Reference);
  EXPECT_NE(s.error().message.find("/nonexistent/w1.reference.so"),
            std::string::npos);
  ReferenceLibrary lib2;
  s = lib2.open(MEMOPT_TEST_REFERENCE_LIB, "no_such_symbol");
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("has no symbol 'no_such_symbol'"),
            std::string::npos);
}

} // namespace

//===- DriverTest.cpp - Tests for loading the CUDA driver -------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// No GPU is needed: a missing library, the toolkit's stub driver (whose cuInit
// fails with CUDA_ERROR_STUB_LIBRARY) and the test's fake driver cover the
// paths up to and including device selection.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Driver.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace memopt::runtime;

namespace {

TEST(DriverTest, MissingLibraryIsNoDriver) {
  CudaDriver drv;
  Status s = drv.load("/nonexistent/libcuda-memopt-test.so.1");
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().kind, ErrorKind::NoDriver);
  EXPECT_EQ(exitCodeFor(s.error().kind), kExitNoGpu);
  EXPECT_EQ(s.error().message.rfind("no CUDA driver/GPU: cannot load", 0), 0u)
      << s.error().message;
  EXPECT_NE(s.error().message.find("/nonexistent/libcuda-memopt-test.so.1"),
            std::string::npos);
}

TEST(DriverTest, LibraryWithoutEntryPointsIsNoDriver) {
  // The test reference library loads fine but is no CUDA driver.
  CudaDriver drv;
  Status s = drv.load(MEMOPT_TEST_REFERENCE_LIB);
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().kind, ErrorKind::NoDriver);
  EXPECT_NE(s.error().message.find("has no entry point cuInit"),
            std::string::npos)
      << s.error().message;
}

TEST(DriverTest, StubLibraryIsNoGpu) {
  if (!test::fileExists(MEMOPT_CUDA_STUB_LIB))
    GTEST_SKIP() << "no CUDA stub driver at " MEMOPT_CUDA_STUB_LIB;
  CudaDriver drv;
  Status s = drv.load(MEMOPT_CUDA_STUB_LIB);
  ASSERT_TRUE(s.succeeded()) << s.error().message;
  s = drv.init(0);
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().kind, ErrorKind::NoDevice);
  EXPECT_EQ(exitCodeFor(s.error().kind), kExitNoGpu);
  EXPECT_EQ(s.error().message.rfind("no CUDA driver/GPU: "
                                    "CUDA_ERROR_STUB_LIBRARY",
                                    0),
            0u)
      << s.error().message;
}

TEST(DriverTest, FakeDriverInitializes) {
  CudaDriver drv;
  Status s = drv.load(MEMOPT_FAKE_DRIVER_LIB);
  ASSERT_TRUE(s.succeeded()) << s.error().message;
  s = drv.init(0);
  ASSERT_TRUE(s.succeeded()) << s.error().message;
  EXPECT_EQ(drv.info().name, "memopt fake device");
  EXPECT_EQ(drv.info().ccMajor, 9);
  EXPECT_EQ(drv.info().driverVersion, 13000);
  // A device that does not exist is "no GPU", not a CUDA error.
  CudaDriver other;
  ASSERT_TRUE(other.load(MEMOPT_FAKE_DRIVER_LIB).succeeded());
  s = other.init(3);
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().kind, ErrorKind::NoDevice);
  EXPECT_NE(s.error().message.find("CUDA_ERROR_INVALID_DEVICE"),
            std::string::npos);
}

TEST(DriverTest, ErrorNamesFallBackToTable) {
  EXPECT_EQ(builtinErrorName(CUDA_ERROR_STUB_LIBRARY),
            "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(builtinErrorName(CUDA_ERROR_NO_DEVICE), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(builtinErrorName(CUDA_ERROR_INVALID_PTX), "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(builtinErrorName(12345), "CUDA_ERROR_12345");
  CudaDriver drv; // not loaded: errorName must still work
  EXPECT_EQ(drv.errorName(CUDA_ERROR_OUT_OF_MEMORY),
            "CUDA_ERROR_OUT_OF_MEMORY");
  Status s = drv.check(CUDA_ERROR_ILLEGAL_ADDRESS, "kernel k");
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().kind, ErrorKind::Cuda);
  EXPECT_EQ(s.error().message, "kernel k: CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_TRUE(drv.check(CUDA_SUCCESS, "x").succeeded());
}

TEST(DriverTest, ExitCodes) {
  EXPECT_EQ(exitCodeFor(ErrorKind::Usage), 2);
  EXPECT_EQ(exitCodeFor(ErrorKind::Manifest), 2);
  EXPECT_EQ(exitCodeFor(ErrorKind::Reference), 2);
  EXPECT_EQ(exitCodeFor(ErrorKind::NoDriver), 3);
  EXPECT_EQ(exitCodeFor(ErrorKind::NoDevice), 3);
  EXPECT_EQ(exitCodeFor(ErrorKind::Cuda), 4);
}

} // namespace

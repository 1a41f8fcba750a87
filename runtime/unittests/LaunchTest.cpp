//===- LaunchTest.cpp - Tests for DevicePipeline on a fake driver -*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// Runs the host schedule (launch and copy steps, aliases, poisoning, timing)
// against the host-only fake driver, so argument marshalling and error
// reporting are tested without a GPU.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Launch.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

#include <cstring>
#include <dlfcn.h>

using namespace memopt::runtime;

namespace {

class LaunchTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(drv.load(MEMOPT_FAKE_DRIVER_LIB).succeeded());
    ASSERT_TRUE(drv.init(0).succeeded());
    dir = test::makeTempDir();
    ASSERT_FALSE(dir.empty());
  }

  Manifest load(const std::string &name) {
    Expected<Manifest> m = loadManifest(dir + "/" + name);
    EXPECT_TRUE(m.succeeded()) << m.error().message;
    return m.succeeded() ? *m : Manifest();
  }

  CudaDriver drv;
  std::string dir;
};

TEST_F(LaunchTest, RunsLaunchAndCopyStepsAndAliases) {
  test::writeAddWorkload(dir);
  for (const char *name : {"add.baseline.json", "add.optimized.json"}) {
    Manifest m = load(name);
    auto p = DevicePipeline::create(drv, m);
    ASSERT_TRUE(p.succeeded()) << p.error().message;
    auto inputs = makeInputs(m, 11);
    ASSERT_TRUE((*p)->upload(inputs).succeeded());
    ASSERT_TRUE((*p)->poison().succeeded());
    std::vector<unsigned char> out;
    ASSERT_TRUE((*p)->download(2, out).succeeded());
    EXPECT_EQ(out[0], kPoisonByte);
    ASSERT_TRUE((*p)->run(true).succeeded());
    ASSERT_TRUE((*p)->download(2, out).succeeded());
    const float *a = reinterpret_cast<const float *>(inputs[0].data());
    const float *b = reinterpret_cast<const float *>(inputs[1].data());
    const float *y = reinterpret_cast<const float *>(out.data());
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(y[i], a[i] + b[i]) << name << " element " << i;
    Expected<PipelineTiming> t = (*p)->time(2, 5);
    ASSERT_TRUE(t.succeeded()) << t.error().message;
    EXPECT_EQ(t->totalSamples.size(), 5u);
    EXPECT_EQ(t->stepMedianMs.size(), m.schedule.size());
    EXPECT_GE(t->totalMedianMs, 0.0);
  }
}

TEST_F(LaunchTest, GraphReplayRunsTheCapturedSchedule) {
  test::writeAddWorkload(dir);
  // The baseline has a copy step, the optimized pipeline launches only.
  for (const char *name : {"add.baseline.json", "add.optimized.json"}) {
    Manifest m = load(name);
    auto p = DevicePipeline::create(drv, m);
    ASSERT_TRUE(p.succeeded()) << p.error().message;
    auto inputs = makeInputs(m, 3);
    ASSERT_TRUE((*p)->upload(inputs).succeeded());
    // Capture poisons first and records the launches without running them;
    // every replay then computes the outputs again.
    Expected<GraphTiming> g = (*p)->timeGraph(3, 1, 4);
    ASSERT_TRUE(g.succeeded()) << g.error().message;
    EXPECT_EQ(g->runsPerGraph, 3);
    EXPECT_EQ(g->samples.size(), 4u);
    EXPECT_GE(g->medianMs, 0.0);
    std::vector<unsigned char> out;
    ASSERT_TRUE((*p)->download(2, out).succeeded());
    const float *a = reinterpret_cast<const float *>(inputs[0].data());
    const float *b = reinterpret_cast<const float *>(inputs[1].data());
    const float *y = reinterpret_cast<const float *>(out.data());
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(y[i], a[i] + b[i]) << name << " element " << i;
    EXPECT_TRUE((*p)->timeGraph(0, 1, 4).failed());
  }
}

TEST_F(LaunchTest, ClusterLaunchGoesThroughLaunchKernelEx) {
  test::writeAddWorkload(dir);
  Manifest m = load("add.optimized.json");
  m.schedule[0].cluster = {2, 1, 1};
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.succeeded()) << p.error().message;
  EXPECT_NE((*p)->describeLaunch(m.schedule[0]).find(" cluster [2,1,1] "),
            std::string::npos)
      << (*p)->describeLaunch(m.schedule[0]);
  auto inputs = makeInputs(m, 5);
  ASSERT_TRUE((*p)->upload(inputs).succeeded());
  ASSERT_TRUE((*p)->run(true).succeeded());
  void *fake = dlopen(MEMOPT_FAKE_DRIVER_LIB, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(fake, nullptr);
  auto *cluster =
      static_cast<unsigned *>(dlsym(fake, "memopt_fake_last_cluster"));
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(cluster[0], 2u);
  EXPECT_EQ(cluster[1], 1u);
  EXPECT_EQ(cluster[2], 1u);
  dlclose(fake);
  std::vector<unsigned char> out;
  ASSERT_TRUE((*p)->download(2, out).succeeded());
  const float *a = reinterpret_cast<const float *>(inputs[0].data());
  const float *b = reinterpret_cast<const float *>(inputs[1].data());
  const float *y = reinterpret_cast<const float *>(out.data());
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(y[i], a[i] + b[i]) << "element " << i;
}

TEST_F(LaunchTest, PersistentLaunchKeepsToTheClustersThatFit) {
  test::writeAddWorkload(dir);
  Manifest m = load("add.optimized.json");
  m.schedule[0].cluster = {2, 1, 1};
  m.schedule[0].persistent = true;
  void *fake = dlopen(MEMOPT_FAKE_DRIVER_LIB, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(fake, nullptr);
  auto *fit =
      static_cast<int *>(dlsym(fake, "memopt_fake_max_active_clusters"));
  ASSERT_NE(fit, nullptr);
  // One cluster of two blocks fits: the grid of 4 becomes 2.
  *fit = 1;
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.succeeded()) << p.error().message;
  EXPECT_EQ((*p)->launchGrid(0), (std::array<unsigned, 3>{2, 1, 1}));
  std::string d = (*p)->describeLaunch(m.schedule[0]);
  EXPECT_NE(d.find("grid [2,1,1] (persistent; manifest grid [4,1,1])"),
            std::string::npos)
      << d;
  // More clusters fit than the manifest launches: its grid stays.
  *fit = 8;
  auto q = DevicePipeline::create(drv, m);
  ASSERT_TRUE(q.succeeded()) << q.error().message;
  EXPECT_EQ((*q)->launchGrid(0), (std::array<unsigned, 3>{4, 1, 1}));
  // Without "persistent" the grid is the manifest's whatever fits.
  *fit = 1;
  m.schedule[0].persistent = false;
  auto r = DevicePipeline::create(drv, m);
  ASSERT_TRUE(r.succeeded()) << r.error().message;
  EXPECT_EQ((*r)->launchGrid(0), (std::array<unsigned, 3>{4, 1, 1}));
  EXPECT_EQ((*r)->activeClusters(0), 1);
  *fit = 1000;
  dlclose(fake);
}

TEST_F(LaunchTest, AliasAddressIncludesOffset) {
  test::writeAddWorkload(dir);
  Manifest m = load("add.optimized.json");
  m.buffers[3].offsetBytes = 64;
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.succeeded());
  EXPECT_EQ((*p)->address(3), (*p)->address(2) + 64);
  std::string d = (*p)->describeLaunch(m.schedule[0]);
  EXPECT_NE(d.find("kernel 'opt_add' grid [4,1,1] block [256,1,1]"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("buffer 3 (view, 4096 B) = 0x"), std::string::npos) << d;
  EXPECT_NE(d.find("i64 1024"), std::string::npos) << d;
}

TEST_F(LaunchTest, PtxLoadFailureShowsJitLog) {
  test::AddWorkload w;
  w.brokenPtx = true;
  test::writeAddWorkload(dir, w);
  Manifest m = load("add.optimized.json");
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.failed());
  EXPECT_EQ(p.error().kind, ErrorKind::Cuda);
  EXPECT_NE(p.error().message.find("cannot load PTX module"),
            std::string::npos);
  EXPECT_NE(p.error().message.find("CUDA_ERROR_INVALID_PTX"),
            std::string::npos);
  EXPECT_NE(p.error().message.find("JIT error log:\nptxas fatal"),
            std::string::npos)
      << p.error().message;
}

TEST_F(LaunchTest, MissingKernelIsNamed) {
  test::AddWorkload w;
  w.optimizedKernel = "opt_missing";
  test::writeAddWorkload(dir, w);
  Manifest m = load("add.optimized.json");
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.failed());
  EXPECT_NE(p.error().message.find("schedule[0].kernel: kernel 'opt_missing' "
                                   "named in the manifest is missing from "
                                   "module"),
            std::string::npos)
      << p.error().message;
}

TEST_F(LaunchTest, OutOfMemoryNamesBuffer) {
  test::AddWorkload w;
  w.hugeTemp = true;
  test::writeAddWorkload(dir, w);
  Manifest m = load("add.optimized.json");
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.failed());
  EXPECT_NE(p.error().message.find("buffer 3 'tmp' (temp, 4398046511104 bytes"),
            std::string::npos)
      << p.error().message;
  EXPECT_NE(p.error().message.find("CUDA_ERROR_OUT_OF_MEMORY"),
            std::string::npos);
}

TEST_F(LaunchTest, AsynchronousFaultNamesLaunch) {
  test::AddWorkload w;
  w.optimizedKernel = "opt_fault";
  test::writeAddWorkload(dir, w);
  Manifest m = load("add.optimized.json");
  auto p = DevicePipeline::create(drv, m);
  ASSERT_TRUE(p.succeeded());
  Status s = (*p)->run(true);
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("optimized schedule[0]: kernel failed: "
                                   "kernel 'opt_fault' grid [4,1,1] block "
                                   "[256,1,1]"),
            std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find("CUDA_ERROR_ILLEGAL_ADDRESS"),
            std::string::npos);
}

TEST_F(LaunchTest, CopyBandwidthProbe) {
  Expected<CopyBandwidth> bw = measureCopyBandwidth(drv, 1 << 20, 1, 20);
  ASSERT_TRUE(bw.succeeded()) << bw.error().message;
  EXPECT_EQ(bw->iterations, 20);
  EXPECT_EQ(bw->bufferBytes, 1 << 20);
  EXPECT_GT(bw->gbPerSecond, 0.0);
}

} // namespace

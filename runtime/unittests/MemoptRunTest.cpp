//===- MemoptRunTest.cpp - End-to-end tests of memopt-run -------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// Runs the memopt-run executable on the "add" test workload with the fake
// driver (and the CUDA stub driver) and checks exit codes, messages and the
// JSON report.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Json.h"
#include "memopt-runtime/Manifest.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

#include <cstdio>

using namespace memopt::runtime;

namespace {

/// memopt-run with `args`.
test::ToolResult runTool(const std::string &args) {
  return test::runTool(MEMOPT_RUN_TOOL, args);
}

class MemoptRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = test::makeTempDir();
    ASSERT_FALSE(dir.empty());
  }
  std::string args(const std::string &driver, const std::string &extra = "") {
    return "--baseline " + dir + "/add.baseline.json --optimized " + dir +
           "/add.optimized.json --reference " + dir +
           "/add.reference.json --cuda-driver '" + driver + "' --json " + dir +
           "/out.json " + extra;
  }
  json::Value report() {
    std::string text;
    EXPECT_TRUE(readFile(dir + "/out.json", text).succeeded());
    Expected<json::Value> v = json::parse(text);
    EXPECT_TRUE(v.succeeded());
    return v.succeeded() ? *v : json::Value();
  }
  std::string dir;
};

TEST_F(MemoptRunTest, PassingRunReportsEverything) {
  test::writeAddWorkload(dir);
  test::ToolResult r = runTool(args(MEMOPT_FAKE_DRIVER_LIB,
                             "--warmup 1 --iters 20 --copy-bytes 1048576 "
                             "--seed 5 --name w0_add"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("memopt-run w0_add: memopt fake device (sm_90"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("RESULT: PASS"), std::string::npos);
  json::Value v = report();
  EXPECT_EQ(v.find("status")->getString(), "ok");
  EXPECT_EQ(v.find("name")->getString(), "w0_add");
  EXPECT_TRUE(v.find("verification")->find("passed")->getBool());
  EXPECT_EQ(v.find("verification")->find("checks")->size(), 3u);
  const json::Value *base = v.find("pipelines")->find("baseline");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->find("steps")->size(), 2u);
  const json::Value &step0 = base->find("steps")->at(0);
  EXPECT_EQ(step0.find("kernel")->getString(), "base_add");
  EXPECT_EQ(step0.find("grid")->at(0).getInt(), 4);
  EXPECT_TRUE(step0.find("median_ms")->isNumber());
  const json::Value *total = base->find("total");
  EXPECT_EQ(total->find("model_bytes")->getInt(), 20480);
  EXPECT_EQ(total->find("min_bytes")->getInt(), 12288);
  EXPECT_TRUE(total->find("fraction_of_copy") != nullptr);
  // Graph replay: the fake records the captured launches and replays them.
  const json::Value *graph = total->find("graph_replay");
  ASSERT_NE(graph, nullptr) << r.output;
  EXPECT_GE(graph->find("runs_per_graph")->getInt(), 4);
  EXPECT_LE(graph->find("runs_per_graph")->getInt(), 200);
  EXPECT_TRUE(graph->find("median_ms")->isNumber());
  EXPECT_NE(r.output.find("graph replay ("), std::string::npos) << r.output;
  EXPECT_DOUBLE_EQ(
      v.find("bytes_reduction_model")->find("factor")->getNumber(),
      20480.0 / 12288.0);
  EXPECT_TRUE(v.find("copy_bandwidth")->find("gbps")->isNumber());
  EXPECT_EQ(v.find("device")->find("driver_version")->getInt(), 13000);
}

TEST_F(MemoptRunTest, NoTimingPrintsNoTimes) {
  test::writeAddWorkload(dir);
  test::ToolResult r = runTool(args(MEMOPT_FAKE_DRIVER_LIB, "--no-timing"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  json::Value v = report();
  EXPECT_EQ(v.find("copy_bandwidth"), nullptr);
  const json::Value *total =
      v.find("pipelines")->find("optimized")->find("total");
  EXPECT_EQ(total->find("median_ms"), nullptr);
  EXPECT_EQ(v.find("speedup"), nullptr);
}

TEST_F(MemoptRunTest, WrongKernelFailsVerification) {
  test::AddWorkload w;
  w.optimizedKernel = "opt_addone";
  test::writeAddWorkload(dir, w);
  test::ToolResult r = runTool(args(MEMOPT_FAKE_DRIVER_LIB, "--no-timing"));
  ASSERT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL optimized vs reference"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("PASS baseline vs reference"), std::string::npos);
  EXPECT_NE(r.output.find("first at 0"), std::string::npos);
  json::Value v = report();
  EXPECT_EQ(v.find("status")->getString(), "verification_failed");
  const json::Value &check = v.find("verification")->find("checks")->at(1);
  EXPECT_EQ(check.find("mismatches")->getInt(), 1024);
  EXPECT_NEAR(check.find("max_abs_err")->getNumber(), 1.0, 1e-6);
}

// The literal reference is coarse (a + b to 1/16): against it the exact
// kernels would fail the dtype tolerance; judged against the f64 evaluation
// with the pairwise bound they pass, and errors of 10% or of one still fail.
TEST_F(MemoptRunTest, PrecisionVerdictAgainstF64) {
  test::AddWorkload w;
  w.coarseLiteral = true;
  test::writeAddWorkload(dir, w);
  test::ToolResult r = runTool(args(MEMOPT_FAKE_DRIVER_LIB, "--no-timing"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("within the program's precision"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("info optimized vs baseline"), std::string::npos);
  json::Value v = report();
  const json::Value &check = v.find("verification")->find("checks")->at(1);
  EXPECT_EQ(check.find("comparison")->getString(), "optimized vs reference");
  const json::Value *p = check.find("precision");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->find("route")->getString(), "within the program's precision");
  EXPECT_GT(p->find("literal_rel_l2_vs_f64")->getNumber(), 1e-3);
  for (const char *planted : {"opt_addscaled", "opt_addone"}) {
    w.optimizedKernel = planted;
    test::writeAddWorkload(dir, w);
    r = runTool(args(MEMOPT_FAKE_DRIVER_LIB, "--no-timing"));
    EXPECT_EQ(r.exitCode, 1) << planted << "\n" << r.output;
    EXPECT_NE(r.output.find("FAIL optimized vs reference"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("outside the bound and not the literal evaluation"),
              std::string::npos)
        << r.output;
  }
}

TEST_F(MemoptRunTest, NoDriverExitsThree) {
  test::writeAddWorkload(dir);
  test::ToolResult r = runTool(args("/nonexistent/libcuda.so.1"));
  ASSERT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("no CUDA driver/GPU"), std::string::npos);
  EXPECT_EQ(r.output.find("GB/s"), std::string::npos) << "printed a figure";
  json::Value v = report();
  EXPECT_EQ(v.find("status")->getString(), "error");
  EXPECT_EQ(v.find("exit_code")->getInt(), 3);
  EXPECT_EQ(v.find("pipelines"), nullptr);
}

TEST_F(MemoptRunTest, StubDriverExitsThree) {
  if (!test::fileExists(MEMOPT_CUDA_STUB_LIB))
    GTEST_SKIP() << "no CUDA stub driver at " MEMOPT_CUDA_STUB_LIB;
  test::writeAddWorkload(dir);
  test::ToolResult r = runTool(args(MEMOPT_CUDA_STUB_LIB));
  ASSERT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("no CUDA driver/GPU: CUDA_ERROR_STUB_LIBRARY"),
            std::string::npos)
      << r.output;
}

TEST_F(MemoptRunTest, CudaErrorsExitFour) {
  struct Case {
    test::AddWorkload w;
    const char *expect;
  } cases[] = {
      {{"opt_add", true, false}, "JIT error log:"},
      {{"opt_missing", false, false}, "kernel 'opt_missing' named in the "
                                      "manifest is missing from module"},
      {{"opt_add", false, true}, "(temp, 4398046511104 bytes"},
      {{"opt_fault", false, false}, "kernel failed: kernel 'opt_fault' grid"},
  };
  for (const Case &c : cases) {
    test::writeAddWorkload(dir, c.w);
    test::ToolResult r = runTool(args(MEMOPT_FAKE_DRIVER_LIB, "--no-timing"));
    EXPECT_EQ(r.exitCode, 4) << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << r.output;
  }
}

TEST_F(MemoptRunTest, UsageAndManifestErrorsExitTwo) {
  test::ToolResult r = runTool("--baseline x.json");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("usage: memopt-run"), std::string::npos);
  r = runTool("--bogus 1");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("unknown option '--bogus'"), std::string::npos);
  test::writeAddWorkload(dir);
  r = runTool(args(MEMOPT_FAKE_DRIVER_LIB, "--iters 0"));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("--iters"), std::string::npos);
  // Reference passed where the baseline belongs.
  r = runTool("--baseline " + dir + "/add.reference.json --optimized " + dir +
              "/add.optimized.json --reference " + dir + "/add.reference.json");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("add.reference.json: pipeline: --baseline needs"),
            std::string::npos)
      << r.output;
  // A malformed manifest names the file and field, before any driver work.
  test::writeTextFile(dir + "/add.optimized.json", "{\"format\": \"memopt-manifest\"}");
  r = runTool(args("/nonexistent/libcuda.so.1"));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("add.optimized.json: version: missing required field"),
            std::string::npos)
      << r.output;
}

} // namespace

// A record result split into per-field outputs (memopt-aos-to-soa on a
// result): fields 0 and 1 come back from the device as arrays and are
// scattered into the host record array, fields 2 and 3 are copied from the
// input. memopt-run once gathered such outputs from an input before the run.
TEST_F(MemoptRunTest, RecordResultIsAssembledAfterTheRun) {
  std::string head = R"({
  "format": "memopt-manifest", "version": 1, "function": "rec",
  "target": {"chip": "sm_90", "ptx_version": "8.0"},
)";
  std::string p = R"({"id": 0, "name": "p", "role": "input", "dtype": "f32",
     "shape": [64, 4], "bytes": 1024})";
  std::string base = head + R"(  "pipeline": "baseline", "ptx": "rec.ptx",
  "buffers": [)" + p + R"(,
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [64, 4], "bytes": 1024}],
  "schedule": [{"kind": "launch", "kernel": "base_recscale", "grid": [1, 1, 1],
    "block": [64, 1, 1], "args": [{"buffer": 0}, {"buffer": 1}, {"i64": 64}],
    "bytes_read": 1024, "bytes_written": 1024}],
  "min_bytes": 2048, "model_bytes": {"read": 1024, "written": 1024}
})";
  std::string opt = head + R"(  "pipeline": "optimized", "ptx": "rec.ptx",
  "buffers": [)" + p + R"(,
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [64, 4],
     "bytes": 1024, "host_only": true,
     "pass_through": [{"field": 2, "source": 0, "source_field": 2},
                      {"field": 3, "source": 0, "source_field": 3}]},
    {"id": 2, "name": "res0.f0", "role": "output", "dtype": "f32", "shape": [64],
     "bytes": 256, "derived": {"kind": "aos-field", "source": 1, "record": 4, "field": 0}},
    {"id": 3, "name": "res0.f1", "role": "output", "dtype": "f32", "shape": [64],
     "bytes": 256, "derived": {"kind": "aos-field", "source": 1, "record": 4, "field": 1}}],
  "schedule": [{"kind": "launch", "kernel": "opt_fieldscale", "grid": [1, 1, 1],
    "block": [64, 1, 1], "args": [{"buffer": 0}, {"buffer": 2}, {"buffer": 3}, {"i64": 64}],
    "bytes_read": 1024, "bytes_written": 512}],
  "min_bytes": 2048, "model_bytes": {"read": 1024, "written": 512}
})";
  std::string ref = head + R"(  "pipeline": "reference",
  "library": ")" MEMOPT_TEST_REFERENCE_LIB R"(", "symbol": "memopt_test_recscale",
  "buffers": [)" + p + R"(,
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [64, 4], "bytes": 1024}],
  "schedule": [], "min_bytes": 2048, "model_bytes": {"read": 0, "written": 0}
})";
  test::writeTextFile(dir + "/rec.baseline.json", base);
  test::writeTextFile(dir + "/rec.optimized.json", opt);
  test::writeTextFile(dir + "/rec.reference.json", ref);
  test::writeTextFile(dir + "/rec.ptx",
                      ".version 8.0\n.target sm_90\n"
                      ".visible .entry base_recscale(\n)\n"
                      ".visible .entry opt_fieldscale(\n)\n");
  test::ToolResult r = runTool(
      "--baseline " + dir + "/rec.baseline.json --optimized " + dir +
      "/rec.optimized.json --reference " + dir + "/rec.reference.json " +
      "--cuda-driver '" MEMOPT_FAKE_DRIVER_LIB "' --no-timing");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("layout conversion back optimized"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("PASS optimized vs reference"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
}

//===- TestUtil.cpp - Shared helpers for the runtime unit tests -*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the helpers declared in TestUtil.h.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace memopt::runtime::test;

std::string memopt::runtime::test::makeTempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string templ =
      std::string(base && *base ? base : "/tmp") + "/memopt-rt-test-XXXXXX";
  char *made = mkdtemp(templ.data());
  return made ? std::string(made) : std::string();
}

bool memopt::runtime::test::writeTextFile(const std::string &path,
                                          const std::string &text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

bool memopt::runtime::test::fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

static std::string addBuffers(bool withTemp, bool hugeTemp, bool withAlias) {
  std::string s =
      R"(  "buffers": [
    {"id": 0, "name": "a", "role": "input", "dtype": "f32", "shape": [1024], "bytes": 4096},
    {"id": 1, "name": "b", "role": "input", "dtype": "f32", "shape": [1024], "bytes": 4096},
    {"id": 2, "name": "out", "role": "output", "dtype": "f32", "shape": [1024], "bytes": 4096})";
  if (withTemp) {
    s += hugeTemp ? ",\n    {\"id\": 3, \"name\": \"tmp\", \"role\": \"temp\", "
                    "\"dtype\": \"f32\", \"shape\": [1099511627776], "
                    "\"bytes\": 4398046511104}"
                  : ",\n    {\"id\": 3, \"name\": \"tmp\", \"role\": \"temp\", "
                    "\"dtype\": \"f32\", \"shape\": [1024], \"bytes\": 4096}";
  }
  if (withAlias)
    s += ",\n    {\"id\": 3, \"name\": \"view\", \"role\": \"alias\", "
         "\"alias_of\": 2, \"offset_bytes\": 0, \"dtype\": \"f32\", "
         "\"shape\": [32, 32], \"bytes\": 4096}";
  return s + "\n  ],\n";
}

void memopt::runtime::test::writeAddWorkload(const std::string &dir,
                                             const AddWorkload &opts) {
  std::string head = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "add",
  "target": {"chip": "sm_90", "ptx_version": "8.0"},
)";
  writeTextFile(dir + "/add.baseline.json",
                head + R"(  "pipeline": "baseline",
  "ptx": "add.baseline.ptx",
)" + addBuffers(true, false, false) +
                    R"(  "schedule": [
    {"kind": "launch", "kernel": "base_add", "grid": [4, 1, 1], "block": [256, 1, 1],
     "shared_bytes": 0, "args": [{"buffer": 0}, {"buffer": 1}, {"buffer": 3}, {"i64": 1024}],
     "bytes_read": 8192, "bytes_written": 4096},
    {"kind": "copy", "src": 3, "dst": 2, "bytes": 4096}
  ],
  "min_bytes": 12288,
  "model_bytes": {"read": 12288, "written": 8192}
}
)");
  writeTextFile(dir + "/add.baseline.ptx",
                ".version 8.0\n.target sm_90\n.visible .entry base_add(\n)\n");
  std::string kernel = opts.optimizedKernel;
  bool temp = opts.hugeTemp;
  writeTextFile(dir + "/add.optimized.json",
                head + R"(  "pipeline": "optimized",
  "ptx": "add.optimized.ptx",
)" + addBuffers(temp, opts.hugeTemp, !temp) +
                    R"(  "schedule": [
    {"kind": "launch", "kernel": ")" +
                    kernel + R"(", "grid": [4, 1, 1], "block": [256, 1, 1],
     "args": [{"buffer": 0}, {"buffer": 1}, {"buffer": )" +
                    (temp ? "2" : "3") + R"(}, {"i64": 1024}],
     "bytes_read": 8192, "bytes_written": 4096}
  ],
  "min_bytes": 12288,
  "model_bytes": {"read": 8192, "written": 4096}
}
)");
  // Every kernel the tests name exists, except opt_missing.
  std::string ptx = ".version 8.0\n.target sm_90\n"
                    ".visible .entry opt_add(\n)\n"
                    ".visible .entry opt_addone(\n)\n"
                    ".visible .entry opt_addscaled(\n)\n"
                    ".visible .entry opt_fault(\n)\n";
  if (opts.brokenPtx)
    ptx += "FAKE_SYNTAX_ERROR\n";
  writeTextFile(dir + "/add.optimized.ptx", ptx);
  writeTextFile(dir + "/add.reference.json",
                head + R"(  "pipeline": "reference",
  "library": ")" MEMOPT_TEST_REFERENCE_LIB R"(",
  "symbol": ")" + std::string(opts.coarseLiteral ? "memopt_test_add_coarse"
                                                 : "memopt_test_add") +
                    R"(",
)" + (opts.coarseLiteral ? std::string(R"(  "f64_reference": {"library": ")"
                                        MEMOPT_TEST_REFERENCE_LIB
                                        R"(", "symbol": "memopt_test_add"},
  "pairwise_reference": {"library": ")" MEMOPT_TEST_REFERENCE_LIB
                                        R"(", "symbol": "memopt_test_add_fine"},
)")
                         : std::string()) +
                    addBuffers(false, false, false) +
                    R"(  "schedule": [],
  "min_bytes": 12288,
  "model_bytes": {"read": 0, "written": 0}
}
)");
}

ToolResult memopt::runtime::test::runTool(const std::string &tool,
                                          const std::string &args) {
  ToolResult r;
  std::string cmd = "'" + tool + "' " + args + " 2>&1";
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0)
    r.output.append(buf, n);
  int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string memopt::runtime::test::replaceFirst(std::string text,
                                                const std::string &from,
                                                const std::string &to) {
  size_t pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos)
    text.replace(pos, from.size(), to);
  return text;
}

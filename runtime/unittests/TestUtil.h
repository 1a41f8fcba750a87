//===- TestUtil.h - Shared helpers for the runtime unit tests ---*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares helpers shared by the runtime unit tests: scratch
// directories, file writing, and a tiny "add" workload (manifests plus fake
// PTX) that runs on the fake driver.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_UNITTESTS_TESTUTIL_H
#define MEMOPT_RUNTIME_UNITTESTS_TESTUTIL_H

#include <string>

namespace memopt::runtime::test {

/// Creates a fresh directory under $TMPDIR (or /tmp) and returns its path.
std::string makeTempDir();
/// Writes `text` to `path`; returns false on failure.
bool writeTextFile(const std::string &path, const std::string &text);
/// True if `path` names an existing file.
bool fileExists(const std::string &path);

/// Exit status and combined stdout/stderr of a tool run.
struct ToolResult {
  int exitCode = -1;
  std::string output;
};
/// Runs `tool` with the shell-quoted `args`.
ToolResult runTool(const std::string &tool, const std::string &args);

/// `text` with the first occurrence of `from` replaced by `to` (a gtest
/// failure if there is none).
std::string replaceFirst(std::string text, const std::string &from,
                         const std::string &to);

/// Options for writeAddWorkload.
struct AddWorkload {
  /// Kernel the optimized pipeline launches: "opt_add" computes a + b,
  /// "opt_addone" is wrong by one, "opt_addscaled" by 10%, "opt_fault" faults, "opt_missing" is not in
  /// the module.
  std::string optimizedKernel = "opt_add";
  /// Make the optimized PTX fail to JIT.
  bool brokenPtx = false;
  /// Give the optimized pipeline's temp buffer an absurd size (out of memory).
  bool hugeTemp = false;
  /// The reference's literal evaluation is a + b to multiples of 1/16 (a
  /// poor order), shipped with an exact f64 evaluation and a fine pairwise
  /// one (multiples of 2^-20): the precision-aware verdict.
  bool coarseLiteral = false;
};

/// Writes <dir>/add.{baseline,optimized}.{json,ptx} and add.reference.json
/// (1024-element f32 out = a + b; the reference uses the test reference
/// library). The baseline computes into a temp and copies to the output; the
/// optimized pipeline writes the output through an alias view.
void writeAddWorkload(const std::string &dir, const AddWorkload &opts = {});

} // namespace memopt::runtime::test

#endif // MEMOPT_RUNTIME_UNITTESTS_TESTUTIL_H

//===- memopt-cpu-diff.cpp - CPU differential check -----------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs two host artifacts of the same input function (for example the
// reference and the baseline kernels run as host loops) on the same seeded
// random inputs and compares every output with the dtype tolerances of the
// runtime. Prints one line per output and a final PASS/FAIL line; exits 0 on
// agreement, 1 on a mismatch, 2 on usage or manifest errors.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Manifest.h"
#include "memopt-runtime/Reference.h"
#include "memopt-runtime/Verify.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace memopt::runtime;

static int fail(const Error &e) {
  std::fprintf(stderr, "memopt-cpu-diff: %s\n", e.message.c_str());
  return 2;
}

/// Runs the host library of `m` on `inputs`; returns all buffers by id.
static Expected<std::vector<std::vector<unsigned char>>>
runHost(const Manifest &m, const std::vector<std::vector<unsigned char>> &in) {
  ReferenceLibrary lib;
  if (Status s = lib.open(m.libraryFile, m.symbol); s.failed())
    return s.error();
  std::vector<std::vector<unsigned char>> bufs(m.buffers.size());
  std::vector<void *> args;
  for (const Buffer &b : m.buffers) {
    if (b.role == BufferRole::Input) {
      bufs[b.id] = in[b.id];
    } else if (b.role == BufferRole::Output) {
      // Poison outputs so an unwritten element cannot pass.
      bufs[b.id].assign(b.bytes, 0xFF);
    } else {
      continue;
    }
    args.push_back(bufs[b.id].data());
  }
  if (Status s = lib.call(args); s.failed())
    return s.error();
  return bufs;
}

int main(int argc, char **argv) {
  std::string refPath, testPath;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (refPath.empty())
      refPath = a;
    else if (testPath.empty())
      testPath = a;
    else {
      std::fprintf(stderr, "usage: memopt-cpu-diff REF.json TEST.json "
                           "[--seed N]\n");
      return 2;
    }
  }
  if (testPath.empty()) {
    std::fprintf(stderr,
                 "usage: memopt-cpu-diff REF.json TEST.json [--seed N]\n");
    return 2;
  }
  Expected<Manifest> ref = loadManifest(refPath);
  if (ref.failed())
    return fail(ref.error());
  Expected<Manifest> test = loadManifest(testPath);
  if (test.failed())
    return fail(test.error());
  if (Status s = checkCompatible(*ref, *test); s.failed())
    return fail(s.error());
  if (ref->libraryFile.empty() || test->libraryFile.empty()) {
    std::fprintf(stderr, "memopt-cpu-diff: both manifests must describe host "
                         "libraries\n");
    return 2;
  }
  std::vector<std::vector<unsigned char>> inputs = makeInputs(*ref, seed);
  auto refOut = runHost(*ref, inputs);
  if (refOut.failed())
    return fail(refOut.error());
  auto testOut = runHost(*test, inputs);
  if (testOut.failed())
    return fail(testOut.error());
  bool ok = true;
  for (const Buffer &b : ref->buffers) {
    if (b.role != BufferRole::Output)
      continue;
    CompareResult r =
        compareBuffers((*testOut)[b.id].data(), (*refOut)[b.id].data(),
                       b.dtype, b.numElements(), defaultTolerance(b.dtype));
    std::printf("output %s (%s): %lld elements, %lld mismatches, max abs err "
                "%.3g, max rel err %.3g, rel L2 %.3g\n",
                b.name.c_str(), dtypeName(b.dtype), (long long)r.elements,
                (long long)r.mismatches, r.maxAbsErr, r.maxRelErr, r.relL2);
    if (!r.passed()) {
      ok = false;
      std::printf("  first mismatch at %lld: got %.9g, want %.9g\n",
                  (long long)r.firstMismatch, r.firstGot, r.firstRef);
    }
  }
  // Inputs must be left untouched.
  for (const Buffer &b : ref->buffers)
    if (b.role == BufferRole::Input &&
        std::memcmp((*testOut)[b.id].data(), inputs[b.id].data(), b.bytes)) {
      std::printf("input %s was modified\n", b.name.c_str());
      ok = false;
    }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

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
// runtime. Signature inputs are shared by id; a manifest's derived
// (layout-converted) inputs are gathered from them on the host, its derived
// outputs scattered back into the host-only record outputs, and each
// entry point gets its pointers in its manifest's entry_args order. Prints
// one line per output and a final PASS/FAIL line; exits 0 on agreement, 1 on
// a mismatch or a modified input, 2 on usage or manifest errors.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Manifest.h"
#include "memopt-runtime/Reference.h"
#include "memopt-runtime/Verify.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

using namespace memopt::runtime;

/// The verdict's figures, under the output's line.
static void printVerdict(const PrecisionVerdict &v) {
  if (!v.judged)
    return;
  std::printf("  %s\n", describeVerdict(v).c_str());
  if (v.meaningless)
    std::printf("  warning: the program's own precision makes its literal "
                "result meaningless: its literal evaluation is off by %.3g "
                "of the f64 value's norm\n",
                v.literal.relL2);
}

static int fail(const Error &e) {
  std::fprintf(stderr, "memopt-cpu-diff: %s\n", e.message.c_str());
  return 2;
}

/// What one host run produced: every buffer by id, and the inputs it wrote.
struct HostRun {
  std::vector<std::vector<unsigned char>> bufs;
  std::vector<int64_t> modifiedInputs;
  double conversionMs = 0.0; // host gather of derived inputs
  int64_t conversionBytes = 0;
  double assemblyMs = 0.0; // host scatter of derived outputs
  int64_t assemblyBytes = 0;
};

/// Runs the host library of `m` on the signature inputs `in` (by id):
/// builds m's derived inputs from them, poisons the outputs, and calls the
/// entry point in m's entry_args order.
static Expected<HostRun>
runHost(const Manifest &m, const std::vector<std::vector<unsigned char>> &in) {
  ReferenceLibrary lib;
  if (Status s = lib.open(m.libraryFile, m.symbol); s.failed())
    return s.error();
  if (m.roundingSeed != 0)
    if (Status s = lib.setRoundingSeed(m.roundingSeed); s.failed())
      return s.error();
  HostRun r;
  auto &bufs = r.bufs;
  bufs.resize(m.buffers.size());
  for (const Buffer &b : m.buffers) {
    if (b.role == BufferRole::Input && !b.isDerived())
      bufs[b.id] = in[b.id];
    else if (b.role == BufferRole::Output && !b.hostOnly)
      // Poison outputs so an unwritten element cannot pass.
      bufs[b.id].assign(b.bytes, 0xFF);
  }
  auto t0 = std::chrono::steady_clock::now();
  for (const Buffer &b : m.buffers) {
    if (b.role != BufferRole::Input || !b.isDerived())
      continue;
    if (Status s = computeDerived(m, b, bufs); s.failed())
      return s.error();
    r.conversionBytes += b.bytes;
  }
  r.conversionMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
  std::vector<uint64_t> hashes(m.buffers.size(), 0);
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Input)
      hashes[b.id] = hashBytes(bufs[b.id].data(), bufs[b.id].size());
  Expected<std::vector<void *>> args = entryPointArgs(m, bufs);
  if (args.failed())
    return args.error();
  if (Status s = lib.call(*args); s.failed())
    return s.error();
  // Derived outputs (and pass-through fields) back into the host records.
  auto t1 = std::chrono::steady_clock::now();
  if (Status s = assembleOutputs(m, bufs, &r.assemblyBytes); s.failed())
    return s.error();
  r.assemblyMs = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - t1)
                     .count();
  // Inputs (derived and host-only ones included) must be left untouched.
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Input &&
        hashBytes(bufs[b.id].data(), bufs[b.id].size()) != hashes[b.id])
      r.modifiedInputs.push_back(b.id);
  return r;
}

int main(int argc, char **argv) {
  std::string refPath, testPath;
  uint64_t seed = 1;
  // Overrides of the float tolerances (e.g. f32 outputs computed from
  // 16-bit intermediates); negative = the dtype default.
  double atol = -1, rtol = -1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--atol" && i + 1 < argc)
      atol = std::strtod(argv[++i], nullptr);
    else if (a == "--rtol" && i + 1 < argc)
      rtol = std::strtod(argv[++i], nullptr);
    else if (refPath.empty())
      refPath = a;
    else if (testPath.empty())
      testPath = a;
    else {
      std::fprintf(stderr, "usage: memopt-cpu-diff REF.json TEST.json "
                           "[--seed N] [--atol A] [--rtol R]\n");
      return 2;
    }
  }
  if (testPath.empty()) {
    std::fprintf(stderr,
                 "usage: memopt-cpu-diff REF.json TEST.json [--seed N] [--atol A] "
                 "[--rtol R]\n");
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
  // Signature inputs, shared by id (checkCompatible made them identical).
  std::vector<std::vector<unsigned char>> inputs = makeInputs(*ref, seed);
  auto refRun = runHost(*ref, inputs);
  if (refRun.failed())
    return fail(refRun.error());
  auto testRun = runHost(*test, inputs);
  if (testRun.failed())
    return fail(testRun.error());
  // The f64 and pairwise evaluations shipped with a literal reference.
  std::vector<std::vector<unsigned char>> f64Out, pairwiseOut;
  for (auto [variant, out] :
       {std::make_pair(&ref->f64Reference, &f64Out),
        std::make_pair(&ref->pairwiseReference, &pairwiseOut)}) {
    if (!*variant)
      continue;
    auto run = runHost(ref->withVariant(**variant), inputs);
    if (run.failed())
      return fail(run.error());
    *out = std::move(run->bufs);
  }
  const auto *refOut = &refRun->bufs, *testOut = &testRun->bufs;
  for (const auto &[label, run, m] :
       {std::make_tuple("reference", &*refRun, &*ref),
        std::make_tuple("test", &*testRun, &*test)})
    if (m->numDerived())
      std::printf("layout conversion (%s): %u derived buffers, %lld bytes, "
                  "host gather %.3f ms\n",
                  label, m->numDerived(), (long long)run->conversionBytes,
                  run->conversionMs);
  for (const auto &[label, run, m] :
       {std::make_tuple("reference", &*refRun, &*ref),
        std::make_tuple("test", &*testRun, &*test)})
    if (m->numDerivedOutputs())
      std::printf("layout conversion back (%s): %u derived outputs, %lld "
                  "bytes, host scatter %.3f ms\n",
                  label, m->numDerivedOutputs(), (long long)run->assemblyBytes,
                  run->assemblyMs);
  // The perturbed evaluations, run once an output's verdict without them
  // fails.
  PerturbedSamples perturbed(
      ref->perturbedReference
          ? PerturbedSamples::Runner(
                [&](unsigned seed, PerturbedSamples::Buffers &out) -> Status {
                  Manifest pm = ref->withVariant(*ref->perturbedReference);
                  pm.roundingSeed = seed;
                  auto run = runHost(pm, inputs);
                  if (run.failed())
                    return run.status();
                  out = std::move(run->bufs);
                  return Status::ok();
                })
          : PerturbedSamples::Runner());
  bool ok = true;
  for (const Buffer &b : ref->buffers) {
    if (b.role != BufferRole::Output)
      continue;
    auto at = [&](const std::vector<std::vector<unsigned char>> &bufs) {
      return bufs.empty() ? nullptr : bufs[b.id].data();
    };
    Expected<PrecisionVerdict> judged =
        perturbed.judge(b.id, [&](const std::vector<const void *> &samples) {
          return judgeOutput(
              (*testOut)[b.id].data(), (*refOut)[b.id].data(), at(f64Out),
              at(pairwiseOut), b.dtype, b.numElements(),
              literalTolerance(b.dtype, (*refOut)[b.id].data(),
                               b.numElements(), atol, rtol),
              samples);
        });
    if (judged.failed())
      return fail(judged.error());
    const PrecisionVerdict &v = *judged;
    // Errors against the f64 value when there is one, else against the
    // reference as before.
    const CompareResult &r = v.judged ? v.got : v.asLiteral;
    std::printf("output %s (%s): %lld elements, %lld mismatches, max abs err "
                "%.3g, max rel err %.3g, rel L2 %.3g\n",
                b.name.c_str(), dtypeName(b.dtype), (long long)r.elements,
                (long long)v.mismatches(), r.maxAbsErr, r.maxRelErr, r.relL2);
    printVerdict(v);
    if (!v.passed) {
      ok = false;
      const CompareResult &first = v.judged ? v.got : v.asLiteral;
      if (first.firstMismatch >= 0)
        std::printf("  first mismatch at %lld: got %.9g, want %.9g\n",
                    (long long)first.firstMismatch, first.firstGot,
                    first.firstRef);
    }
  }
  // Inputs must be left untouched.
  for (const auto &[label, run, m] :
       {std::make_tuple("reference", &*refRun, &*ref),
        std::make_tuple("test", &*testRun, &*test)})
    for (int64_t id : run->modifiedInputs) {
      std::printf("input %s (buffer %lld) was modified by the %s library\n",
                  m->buffers[id].name.c_str(), (long long)id, label);
      ok = false;
    }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

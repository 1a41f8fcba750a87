//===- memopt-run.cpp - Run, verify and time memopt pipelines ---*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-run: it loads the baseline and optimized PTX
// modules of one workload, fills the inputs from a seed, runs both on the GPU
// and the CPU reference on the host, verifies the outputs, times both
// pipelines with events, measures the device's copy bandwidth in the same
// process, and reports a table and JSON. It prints no figure it did not
// measure in this run.
//
// Exit codes: 0 ok, 1 verification failed, 2 usage or manifest error,
// 3 no CUDA driver or GPU, 4 CUDA error.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Driver.h"
#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Json.h"
#include "memopt-runtime/Launch.h"
#include "memopt-runtime/Manifest.h"
#include "memopt-runtime/Metrics.h"
#include "memopt-runtime/Reference.h"
#include "memopt-runtime/Verify.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace memopt::runtime;

namespace {
struct Options {
  std::string baseline, optimized, reference;
  std::string jsonOut;
  std::string name;
  std::string driverLibrary = "libcuda.so.1";
  uint64_t seed = 0;
  int warmup = 5;
  int iters = 30;
  int device = 0;
  int64_t copyBytes = int64_t(1) << 30;
  bool timing = true;
  double atol = -1.0, rtol = -1.0; // < 0: dtype defaults
};

/// Outcome of comparing one output buffer against an expectation.
struct Check {
  std::string what; // "baseline vs reference"
  int64_t bufferId;
  std::string bufferName;
  DType dtype;
  Tolerance tol;
  CompareResult result;
  /// Against the references: the precision-aware verdict (result is then
  /// its deciding comparison). Informational checks do not decide.
  std::optional<PrecisionVerdict> verdict;
  bool informational = false;
  bool passed() const {
    return informational || (verdict ? verdict->passed : result.passed());
  }
};

/// Cost of building and uploading one derived (layout-converted) buffer.
struct ConvertedBuffer {
  const Buffer *buffer = nullptr;
  double hostMs = 0.0;   // host gather, steady clock
  double uploadMs = 0.0; // H2D copy, events around it
};

/// Everything measured for one GPU pipeline.
struct PipelineResult {
  const Manifest *manifest = nullptr;
  /// Layout conversion (derived buffers), measured once per run, outside the
  /// timed kernel interval.
  std::vector<ConvertedBuffer> converted;
  double conversionHostMs() const {
    double t = 0.0;
    for (const ConvertedBuffer &c : converted)
      t += c.hostMs;
    return t;
  }
  double conversionUploadMs() const {
    double t = 0.0;
    for (const ConvertedBuffer &c : converted)
      t += c.uploadMs;
    return t;
  }
  int64_t conversionBytes() const {
    int64_t n = 0;
    for (const ConvertedBuffer &c : converted)
      n += c.buffer->bytes;
    return n;
  }
  /// Layout conversion back (derived outputs into host records): download
  /// of every output (steady clock) and the host scatter, measured once.
  int64_t assemblyBytes = 0;
  double assemblyDownloadMs = 0.0, assemblyHostMs = 0.0;
  bool timed = false;
  PipelineTiming timing;
  /// Timing by CUDA-graph replay (graphTimed), or why there is none.
  bool graphTimed = false;
  GraphTiming graph;
  std::string graphWhy;
  /// Per step: the grid launched and, for cluster launches, how many
  /// clusters fit on the device at once (-1: not asked).
  std::vector<std::array<unsigned, 3>> grids;
  std::vector<int> activeClusters;
  bool inputsUnchanged = true;
  std::vector<int64_t> modifiedInputs;
  std::vector<std::vector<unsigned char>> outputs; // by output index
};
} // namespace

static const char *kUsage =
    "usage: memopt-run --baseline B.json --optimized O.json --reference R.json\n"
    "                  [--seed N] [--warmup N] [--iters N] [--json out.json]\n"
    "                  [--no-timing] [--name NAME] [--device N]\n"
    "                  [--copy-bytes N] [--atol X] [--rtol X]\n"
    "                  [--cuda-driver LIB]\n"
    "\n"
    "Runs the baseline and optimized pipelines of one workload on the GPU,\n"
    "checks both against the CPU reference and each other, and times both.\n"
    "  --seed N         input fill seed (default 0)\n"
    "  --warmup N       untimed runs before timing (default 5)\n"
    "  --iters N        timed runs; the median is reported (default 30)\n"
    "  --no-timing      run each pipeline once and verify only\n"
    "  --json FILE      also write the report as JSON\n"
    "  --name NAME      workload name in the report (default: function name)\n"
    "  --device N       CUDA device ordinal (default 0)\n"
    "  --copy-bytes N   size of the copy-bandwidth probe (default 1 GiB)\n"
    "  --atol/--rtol X  override the float tolerances (default per dtype)\n"
    "  --cuda-driver L  driver library to dlopen (default libcuda.so.1)\n"
    "exit codes: 0 ok, 1 verification failed, 2 usage/manifest error,\n"
    "            3 no CUDA driver/GPU, 4 CUDA error\n";

static bool parseInt64(const char *s, int64_t &out) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s, &end, 0);
  if (errno || !end || *end || end == s)
    return false;
  out = v;
  return true;
}

static bool parseDouble(const char *s, double &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtod(s, &end);
  return !errno && end && !*end && end != s;
}

static Status parseArgs(int argc, char **argv, Options &o) {
  auto usage = [](const std::string &msg) {
    return makeError(ErrorKind::Usage, msg + "\n" + kUsage);
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(kExitOk);
    }
    if (a == "--no-timing") {
      o.timing = false;
      continue;
    }
    // Everything else takes a value: "--flag value" or "--flag=value".
    std::string value;
    size_t eq = a.find('=');
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
    } else {
      if (i + 1 >= argc)
        return usage("option " + a + " needs a value");
      value = argv[++i];
    }
    int64_t n = 0;
    auto intArg = [&](int64_t minValue) -> bool {
      return parseInt64(value.c_str(), n) && n >= minValue;
    };
    if (a == "--baseline") {
      o.baseline = value;
    } else if (a == "--optimized") {
      o.optimized = value;
    } else if (a == "--reference") {
      o.reference = value;
    } else if (a == "--json") {
      o.jsonOut = value;
    } else if (a == "--name") {
      o.name = value;
    } else if (a == "--cuda-driver") {
      o.driverLibrary = value;
    } else if (a == "--seed") {
      if (!intArg(0))
        return usage("--seed: expected a non-negative integer, got '" + value +
                     "'");
      o.seed = static_cast<uint64_t>(n);
    } else if (a == "--warmup") {
      if (!intArg(0))
        return usage("--warmup: expected an integer >= 0, got '" + value + "'");
      o.warmup = static_cast<int>(n);
    } else if (a == "--iters") {
      if (!intArg(1))
        return usage("--iters: expected an integer >= 1, got '" + value + "'");
      o.iters = static_cast<int>(n);
    } else if (a == "--device") {
      if (!intArg(0))
        return usage("--device: expected an integer >= 0, got '" + value + "'");
      o.device = static_cast<int>(n);
    } else if (a == "--copy-bytes") {
      if (!intArg(1 << 20))
        return usage("--copy-bytes: expected an integer >= 1048576, got '" +
                     value + "'");
      o.copyBytes = n;
    } else if (a == "--atol") {
      if (!parseDouble(value.c_str(), o.atol) || o.atol < 0)
        return usage("--atol: expected a non-negative number");
    } else if (a == "--rtol") {
      if (!parseDouble(value.c_str(), o.rtol) || o.rtol < 0)
        return usage("--rtol: expected a non-negative number");
    } else {
      return usage("unknown option '" + a + "'");
    }
  }
  if (o.baseline.empty() || o.optimized.empty() || o.reference.empty())
    return usage("--baseline, --optimized and --reference are required");
  return Status::ok();
}

static json::Value dim3Json(const std::array<unsigned, 3> &d) {
  json::Value v = json::Value::array();
  for (unsigned x : d)
    v.push(static_cast<int64_t>(x));
  return v;
}

static json::Value checkJson(const Check &c) {
  json::Value v = json::Value::object();
  v.set("comparison", c.what);
  v.set("buffer", c.bufferId);
  v.set("name", c.bufferName);
  v.set("dtype", dtypeName(c.dtype));
  v.set("passed", c.passed());
  if (c.informational)
    v.set("informational", true);
  v.set("elements", c.result.elements);
  v.set("mismatches", c.result.mismatches);
  v.set("first_mismatch", c.result.firstMismatch);
  if (c.result.firstMismatch >= 0) {
    v.set("first_mismatch_got", c.result.firstGot);
    v.set("first_mismatch_expected", c.result.firstRef);
  }
  v.set("non_finite", c.result.nonFinite);
  v.set("max_abs_err", c.result.maxAbsErr);
  v.set("max_rel_err", c.result.maxRelErr);
  v.set("rel_l2_err", c.result.relL2);
  json::Value tol = json::Value::object();
  if (isFloat(c.dtype)) {
    tol.set("atol", c.tol.atol);
    tol.set("rtol", c.tol.rtol);
  } else {
    tol.set("max_int_diff", c.tol.maxIntDiff);
  }
  v.set("tolerance", tol);
  if (c.verdict && c.verdict->judged) {
    const PrecisionVerdict &pv = *c.verdict;
    json::Value j = json::Value::object();
    j.set("route", pv.route());
    j.set("rel_l2_vs_f64", pv.got.relL2);
    j.set("max_abs_vs_f64", pv.got.maxAbsErr);
    j.set("bound_rel_l2",
          pv.got.refL2 > 0 ? pv.normBound / pv.got.refL2 : pv.normBound);
    j.set("bound_max_abs_slack", pv.elementSlack);
    j.set("outside_element_bound", pv.got.mismatches);
    j.set("uncertainty_order", pv.pairwise ? "pairwise" : "literal");
    j.set("uncertainty_rel_l2", pv.uncertainty.relL2);
    j.set("perturbed_evaluations", static_cast<int64_t>(pv.perturbed));
    j.set("perturbed_rel_l2",
          pv.got.refL2 > 0 ? pv.perturbedDiffL2 / pv.got.refL2
                           : pv.perturbedDiffL2);
    j.set("literal_rel_l2_vs_f64", pv.literal.relL2);
    j.set("literal_max_abs_vs_f64", pv.literal.maxAbsErr);
    j.set("literal_meaningless", pv.meaningless);
    j.set("mismatches_vs_literal", pv.asLiteral.mismatches);
    v.set("precision", j);
  }
  return v;
}

static std::string fmt(const char *format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

static std::string nowIso() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

static Status writeJsonFile(const std::string &path, const json::Value &v) {
  std::ofstream out(path);
  if (!out)
    return makeError(ErrorKind::Usage, "--json: cannot write '" + path + "'");
  out << json::write(v);
  return out ? Status::ok()
             : makeError(ErrorKind::Usage, "--json: write error on " + path);
}

/// Fails the run: prints the error, writes a figure-free JSON if asked.
static int fail(const Options &o, const Error &e) {
  std::fprintf(stderr, "memopt-run: error: %s\n", e.message.c_str());
  if (!o.jsonOut.empty()) {
    json::Value v = json::Value::object();
    v.set("tool", "memopt-run");
    v.set("name", o.name);
    v.set("date", nowIso());
    v.set("status", "error");
    v.set("exit_code", static_cast<int64_t>(exitCodeFor(e.kind)));
    v.set("error", e.message);
    (void)writeJsonFile(o.jsonOut, v);
  }
  return exitCodeFor(e.kind);
}

static uint64_t hashBytes(const std::vector<unsigned char> &data) {
  return memopt::runtime::hashBytes(data.data(), data.size());
}

/// Runs the host entry point of reference manifest `m` on `bufs` (its
/// buffers by id: the inputs filled, the outputs overwritten with poison
/// first), checks that no input changed (`inputHashes`), moves the outputs
/// to `outputs` and adds the call's time to `seconds`.
static Status runHostReference(const Manifest &m,
                               std::vector<std::vector<unsigned char>> &bufs,
                               const std::vector<uint64_t> &inputHashes,
                               std::vector<std::vector<unsigned char>> &outputs,
                               double &seconds) {
  ReferenceLibrary lib;
  if (Status s = lib.open(m.libraryFile, m.symbol); s.failed())
    return s;
  if (m.roundingSeed != 0)
    if (Status s = lib.setRoundingSeed(m.roundingSeed); s.failed())
      return s;
  unsigned numIn = m.numInputs(), numOut = m.numOutputs();
  for (unsigned k = 0; k < numOut; ++k)
    bufs[numIn + k].assign(static_cast<size_t>(m.buffers[numIn + k].bytes),
                           kPoisonByte);
  Expected<std::vector<void *>> args = entryPointArgs(m, bufs);
  if (args.failed())
    return args.error();
  auto t0 = std::chrono::steady_clock::now();
  if (Status s = lib.call(*args); s.failed())
    return s;
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           t0)
                 .count();
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Input &&
        hashBytes(bufs[static_cast<size_t>(b.id)]) !=
            inputHashes[static_cast<size_t>(b.id)])
      return makeError(ErrorKind::Reference,
                       m.libraryFile + ": the CPU reference wrote input "
                                       "buffer " +
                           std::to_string(b.id));
  // Outputs move out of the shared vector; the GPU pipelines read only its
  // inputs.
  outputs.resize(numOut);
  for (unsigned k = 0; k < numOut; ++k)
    outputs[k] = std::move(bufs[numIn + k]);
  return Status::ok();
}

/// Runs one GPU pipeline: verify run (poisoned outputs, synchronized steps),
/// outputs and inputs back to the host, then timing if requested.
static Status runPipeline(const CudaDriver &drv, const Manifest &m,
                          const Options &o,
                          const std::vector<std::vector<unsigned char>> &inputs,
                          PipelineResult &r) {
  r.manifest = &m;
  Expected<std::unique_ptr<DevicePipeline>> created =
      DevicePipeline::create(drv, m);
  if (created.failed())
    return created.status();
  DevicePipeline &p = **created;
  for (size_t i = 0; i < m.schedule.size(); ++i) {
    r.grids.push_back(p.launchGrid(i));
    r.activeClusters.push_back(p.activeClusters(i));
  }
  Status s;
  // Signature inputs (shared with the reference, by id) go up as they are;
  // host-only ones stay on the host.
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Input && !b.hostOnly && !b.isDerived() &&
        (s = p.uploadBuffer(b.id, inputs[static_cast<size_t>(b.id)]))
            .failed())
      return s;
  // Layout conversion: each derived buffer is gathered on the host from its
  // (seeded) source and uploaded, each part timed on its own. None of this
  // is in the kernel timings: timed runs reuse the uploaded buffers.
  std::vector<std::vector<unsigned char>> derived(m.buffers.size());
  for (const Buffer &b : m.buffers) {
    // Derived outputs (fields of a record result) are assembled after the
    // run instead.
    if (!b.isDerived() || b.role != BufferRole::Input)
      continue;
    ConvertedBuffer c;
    c.buffer = &b;
    auto t0 = std::chrono::steady_clock::now();
    if ((s = computeDerived(m, b, inputs[static_cast<size_t>(b.derived.source)],
                            derived[static_cast<size_t>(b.id)]))
            .failed())
      return s;
    c.hostMs = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
    Expected<double> up =
        p.uploadBufferTimed(b.id, derived[static_cast<size_t>(b.id)]);
    if (up.failed())
      return up.status();
    c.uploadMs = *up;
    r.converted.push_back(c);
  }
  if ((s = p.poison()).failed() ||
      (s = p.run(/*syncEachStep=*/true)).failed())
    return s;
  // Outputs back to the host; derived ones (per-field arrays of a record
  // output) are scattered into their host-only record array, timed apart.
  std::vector<std::vector<unsigned char>> outs(m.buffers.size());
  auto t0 = std::chrono::steady_clock::now();
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Output && !b.hostOnly &&
        (s = p.download(b.id, outs[static_cast<size_t>(b.id)])).failed())
      return s;
  if (m.numDerivedOutputs()) {
    for (const Buffer &b : m.buffers)
      for (const PassThroughField &f : b.passThrough)
        outs[static_cast<size_t>(f.source)] =
            inputs[static_cast<size_t>(f.source)];
    auto t1 = std::chrono::steady_clock::now();
    if ((s = assembleOutputs(m, outs, &r.assemblyBytes)).failed())
      return s;
    auto t2 = std::chrono::steady_clock::now();
    r.assemblyDownloadMs =
        std::chrono::duration<double, std::milli>(t1 - t0).count();
    r.assemblyHostMs =
        std::chrono::duration<double, std::milli>(t2 - t1).count();
  }
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Output && !b.isDerived())
      r.outputs.push_back(std::move(outs[static_cast<size_t>(b.id)]));
  // A pipeline that writes its inputs (derived ones included) would make
  // timing runs compute on different data and is wrong by the manifest's
  // contract.
  for (const Buffer &b : m.buffers) {
    if (b.role != BufferRole::Input || b.hostOnly)
      continue;
    std::vector<unsigned char> back;
    if ((s = p.download(b.id, back)).failed())
      return s;
    const auto &expected = b.isDerived() ? derived[static_cast<size_t>(b.id)]
                                         : inputs[static_cast<size_t>(b.id)];
    if (back != expected) {
      r.inputsUnchanged = false;
      r.modifiedInputs.push_back(b.id);
    }
  }
  if (!o.timing)
    return Status::ok();
  Expected<PipelineTiming> t = p.time(o.warmup, o.iters);
  if (t.failed())
    return t.status();
  r.timing = std::move(*t);
  r.timed = true;
  // Graph replay: enough runs per graph that one replay takes about a
  // millisecond (launch latency inside the graph, not the host's, is what
  // a microsecond kernel then shows).
  int runsPerGraph = static_cast<int>(std::clamp<double>(
      std::ceil(1.0 / std::max(r.timing.totalMedianMs, 1e-6)), 4.0, 200.0));
  Expected<GraphTiming> g =
      p.timeGraph(runsPerGraph, std::min(o.warmup, 2), std::min(o.iters, 10));
  if (g.failed()) {
    r.graphWhy = g.error().message;
  } else {
    r.graph = std::move(*g);
    r.graphTimed = true;
  }
  return Status::ok();
}

static double modelBytes(const Manifest &m) {
  return static_cast<double>(m.modelBytesRead + m.modelBytesWritten);
}

int main(int argc, char **argv) {
  Options o;
  Status s = parseArgs(argc, argv, o);
  if (s.failed()) {
    std::fprintf(stderr, "memopt-run: error: %s", s.error().message.c_str());
    return kExitUsage;
  }

  // 1. Manifests: load, validate, cross-check.
  Expected<Manifest> base = loadManifest(o.baseline);
  if (base.failed())
    return fail(o, base.error());
  Expected<Manifest> opt = loadManifest(o.optimized);
  if (opt.failed())
    return fail(o, opt.error());
  Expected<Manifest> ref = loadManifest(o.reference);
  if (ref.failed())
    return fail(o, ref.error());
  if (o.name.empty())
    o.name = base->function;
  if (base->pipeline == "reference")
    return fail(o, makeError(ErrorKind::Manifest,
                             o.baseline + ": pipeline: --baseline needs a GPU "
                                          "manifest, got 'reference'"));
  if (opt->pipeline == "reference")
    return fail(o, makeError(ErrorKind::Manifest,
                             o.optimized + ": pipeline: --optimized needs a "
                                           "GPU manifest, got 'reference'"));
  if (ref->pipeline != "reference")
    return fail(o, makeError(ErrorKind::Manifest,
                             o.reference + ": pipeline: --reference needs "
                                           "pipeline 'reference', got '" +
                                 ref->pipeline + "'"));
  if ((s = checkCompatible(*ref, *base)).failed() ||
      (s = checkCompatible(*ref, *opt)).failed())
    return fail(o, s.error());
  for (const Manifest *m : {&base.value(), &opt.value()}) {
    if (m->scheduleBytesRead() != m->modelBytesRead ||
        m->scheduleBytesWritten() != m->modelBytesWritten)
      std::fprintf(stderr,
                   "memopt-run: warning: %s: model_bytes (%lld read, %lld "
                   "written) differs from the schedule's sum (%lld, %lld); "
                   "totals use model_bytes\n",
                   m->path.c_str(), (long long)m->modelBytesRead,
                   (long long)m->modelBytesWritten,
                   (long long)m->scheduleBytesRead(),
                   (long long)m->scheduleBytesWritten());
  }
  if (ref->hostEntryArgs().size() > kMaxReferenceArgs)
    return fail(o, makeError(ErrorKind::Manifest,
                             o.reference + ": buffers: more than " +
                                 std::to_string(kMaxReferenceArgs) +
                                 " entry point arguments"));

  // 2. Driver and device: without them, say so and print no figures.
  CudaDriver drv;
  if ((s = drv.load(o.driverLibrary)).failed() ||
      (s = drv.init(o.device)).failed())
    return fail(o, s.error());
  const DeviceInfo &dev = drv.info();
  std::string arch =
      "sm_" + std::to_string(dev.ccMajor) + std::to_string(dev.ccMinor);
  for (const Manifest *m : {&base.value(), &opt.value()})
    if (!m->chip.empty() && m->chip != arch)
      std::fprintf(stderr,
                   "memopt-run: warning: %s targets %s, device is %s\n",
                   m->path.c_str(), m->chip.c_str(), arch.c_str());

  // 3. Inputs and the CPU reference.
  // `inputs` holds the reference's buffers by id: its inputs (signature
  // inputs are shared with both GPU pipelines by id) and its outputs.
  std::vector<std::vector<unsigned char>> inputs = makeInputs(*ref, o.seed);
  std::vector<uint64_t> inputHashes(ref->buffers.size(), 0);
  for (const Buffer &b : ref->buffers)
    if (b.role == BufferRole::Input)
      inputHashes[static_cast<size_t>(b.id)] =
          hashBytes(inputs[static_cast<size_t>(b.id)]);
  // The literal reference, then the f64 and pairwise evaluations shipped
  // with it: the same inputs, their own outputs.
  unsigned numIn = ref->numInputs(), numOut = ref->numOutputs();
  std::vector<std::vector<unsigned char>> refOutputs, f64Outputs,
      pairwiseOutputs;
  double refSeconds = 0.0, variantSeconds = 0.0;
  if ((s = runHostReference(*ref, inputs, inputHashes, refOutputs,
                            refSeconds))
          .failed())
    return fail(o, s.error());
  for (auto [variant, out] :
       {std::make_pair(&ref->f64Reference, &f64Outputs),
        std::make_pair(&ref->pairwiseReference, &pairwiseOutputs)})
    if (*variant &&
        (s = runHostReference(ref->withVariant(**variant), inputs,
                              inputHashes, *out, variantSeconds))
            .failed())
      return fail(o, s.error());

  // 4. GPU pipelines, one at a time to bound device memory.
  PipelineResult results[2];
  const Manifest *manifests[2] = {&base.value(), &opt.value()};
  const char *labels[2] = {"baseline", "optimized"};
  for (int k = 0; k < 2; ++k)
    if ((s = runPipeline(drv, *manifests[k], o, inputs, results[k])).failed())
      return fail(o, s.error());

  // 5. Copy bandwidth, in this process, after the pipelines freed memory.
  CopyBandwidth copy;
  if (o.timing) {
    Expected<CopyBandwidth> bw =
        measureCopyBandwidth(drv, o.copyBytes, o.warmup, std::max(o.iters, 20));
    if (bw.failed())
      return fail(o, bw.error());
    copy = *bw;
  }

  // 6. Verification.
  // The perturbed evaluations, run at the first verdict that needs them.
  PerturbedSamples perturbed(
      ref->perturbedReference
          ? PerturbedSamples::Runner(
                [&](unsigned seed, PerturbedSamples::Buffers &out) {
                  Manifest pm = ref->withVariant(*ref->perturbedReference);
                  pm.roundingSeed = seed;
                  return runHostReference(pm, inputs, inputHashes, out,
                                          variantSeconds);
                })
          : PerturbedSamples::Runner());
  std::vector<Check> checks;
  bool allPassed = true;
  for (unsigned k = 0; k < numOut; ++k) {
    const Buffer &b = ref->buffers[numIn + k];
    Tolerance tol = literalTolerance(b.dtype, refOutputs[k].data(),
                                     b.numElements(), o.atol, o.rtol);
    auto add = [&](const std::string &what, const std::vector<unsigned char> &g,
                   const std::vector<unsigned char> &e) {
      Check c{what, b.id, b.name, b.dtype, tol,
              compareBuffers(g.data(), e.data(), b.dtype, b.numElements(),
                             tol),
              std::nullopt, false};
      checks.push_back(std::move(c));
    };
    bool haveF64 = !f64Outputs.empty();
    auto judge = [&](const std::string &what,
                     const std::vector<unsigned char> &g) -> Status {
      Expected<PrecisionVerdict> judged = perturbed.judge(
          k, [&](const std::vector<const void *> &samples) {
            return judgeOutput(
                g.data(), refOutputs[k].data(),
                haveF64 ? f64Outputs[k].data() : nullptr,
                pairwiseOutputs.empty() ? nullptr : pairwiseOutputs[k].data(),
                b.dtype, b.numElements(), tol, samples);
          });
      if (judged.failed())
        return judged.status();
      const PrecisionVerdict &v = *judged;
      Check c{what, b.id, b.name, b.dtype, tol,
              v.judged ? v.got : v.asLiteral, v, false};
      c.result.mismatches = v.mismatches();
      allPassed &= c.passed();
      checks.push_back(std::move(c));
      return Status::ok();
    };
    for (auto [what, out] :
         {std::make_pair("baseline vs reference", &results[0].outputs[k]),
          std::make_pair("optimized vs reference", &results[1].outputs[k])})
      if ((s = judge(what, *out)).failed())
        return fail(o, s.error());
    // Two results within the program's precision may differ by more than
    // the dtype tolerance (one in the literal order): with an f64
    // reference this comparison is information, not a verdict.
    add("optimized vs baseline", results[1].outputs[k], results[0].outputs[k]);
    checks.back().informational = haveF64;
    allPassed &= checks.back().passed();
  }
  for (const PipelineResult &r : results)
    allPassed &= r.inputsUnchanged;

  // 7. Report: JSON tree first, the table is printed from the same numbers.
  json::Value report = json::Value::object();
  report.set("tool", "memopt-run");
  report.set("format_version", 1);
  report.set("name", o.name);
  report.set("function", base->function);
  report.set("date", nowIso());
  report.set("status", allPassed ? "ok" : "verification_failed");
  report.set("exit_code",
             static_cast<int64_t>(allPassed ? kExitOk : kExitVerificationFailed));
  json::Value devJ = json::Value::object();
  devJ.set("name", dev.name);
  devJ.set("ordinal", static_cast<int64_t>(dev.ordinal));
  devJ.set("arch", arch);
  devJ.set("sm_count", static_cast<int64_t>(dev.smCount));
  devJ.set("driver_version", static_cast<int64_t>(dev.driverVersion));
  devJ.set("driver_version_string",
           std::to_string(dev.driverVersion / 1000) + "." +
               std::to_string((dev.driverVersion % 1000) / 10));
  report.set("device", devJ);
  json::Value cfg = json::Value::object();
  cfg.set("seed", static_cast<int64_t>(o.seed));
  cfg.set("timing", o.timing);
  cfg.set("warmup", static_cast<int64_t>(o.warmup));
  cfg.set("iters", static_cast<int64_t>(o.iters));
  cfg.set("baseline_manifest", o.baseline);
  cfg.set("optimized_manifest", o.optimized);
  cfg.set("reference_manifest", o.reference);
  report.set("config", cfg);
  if (o.timing) {
    json::Value c = json::Value::object();
    c.set("method", "cuMemcpyDtoD, bytes = read + written");
    c.set("buffer_bytes", copy.bufferBytes);
    c.set("iterations", static_cast<int64_t>(copy.iterations));
    c.set("median_ms", copy.medianMs);
    c.set("gbps", copy.gbPerSecond);
    report.set("copy_bandwidth", c);
  }
  report.set("reference_cpu_seconds", refSeconds);
  report.set("reference_variants_cpu_seconds", variantSeconds);

  json::Value pipes = json::Value::object();
  double totalMs[2] = {NAN, NAN};
  for (int k = 0; k < 2; ++k) {
    const Manifest &m = *manifests[k];
    const PipelineResult &r = results[k];
    json::Value pj = json::Value::object();
    pj.set("manifest", m.path);
    pj.set("ptx", m.ptxFile);
    pj.set("pipeline", m.pipeline);
    json::Value steps = json::Value::array();
    for (size_t i = 0; i < m.schedule.size(); ++i) {
      const Step &st = m.schedule[i];
      json::Value sj = json::Value::object();
      sj.set("index", static_cast<int64_t>(i));
      sj.set("kind", st.kind == Step::Kind::Launch ? "launch" : "copy");
      if (st.kind == Step::Kind::Launch) {
        sj.set("kernel", st.kernel);
        sj.set("grid", dim3Json(r.grids.empty() ? st.grid : r.grids[i]));
        if (!r.activeClusters.empty() && r.activeClusters[i] >= 0)
          sj.set("active_clusters",
                 static_cast<int64_t>(r.activeClusters[i]));
        sj.set("block", dim3Json(st.block));
        sj.set("shared_bytes", static_cast<int64_t>(st.sharedBytes));
      } else {
        sj.set("src", st.src);
        sj.set("dst", st.dst);
      }
      sj.set("model_bytes_read", st.bytesRead);
      sj.set("model_bytes_written", st.bytesWritten);
      if (r.timed) {
        double ms = r.timing.stepMedianMs[i];
        sj.set("median_ms", ms);
        sj.set("model_gbps",
               gbPerSecond(static_cast<double>(st.bytesRead + st.bytesWritten),
                           ms));
      }
      steps.push(sj);
    }
    pj.set("steps", steps);
    json::Value tj = json::Value::object();
    tj.set("model_bytes_read", m.modelBytesRead);
    tj.set("model_bytes_written", m.modelBytesWritten);
    tj.set("model_bytes", m.modelBytesRead + m.modelBytesWritten);
    tj.set("min_bytes", m.minBytes);
    tj.set("kernels", static_cast<int64_t>(m.schedule.size()));
    if (r.timed) {
      totalMs[k] = r.timing.totalMedianMs;
      double eff = gbPerSecond(static_cast<double>(m.minBytes), totalMs[k]);
      tj.set("median_ms", totalMs[k]);
      tj.set("min_ms", r.timing.totalMinMs);
      tj.set("max_ms", r.timing.totalMaxMs);
      tj.set("effective_gbps", eff);
      tj.set("model_gbps", gbPerSecond(modelBytes(m), totalMs[k]));
      tj.set("fraction_of_copy", fractionOf(eff, copy.gbPerSecond));
    }
    if (r.graphTimed) {
      json::Value gj = json::Value::object();
      gj.set("runs_per_graph", static_cast<int64_t>(r.graph.runsPerGraph));
      gj.set("median_ms", r.graph.medianMs);
      gj.set("min_ms", r.graph.minMs);
      double eff = gbPerSecond(static_cast<double>(m.minBytes),
                               r.graph.medianMs);
      gj.set("effective_gbps", eff);
      gj.set("fraction_of_copy", fractionOf(eff, copy.gbPerSecond));
      tj.set("graph_replay", gj);
    } else if (r.timed) {
      tj.set("graph_replay_unavailable", r.graphWhy);
    }
    pj.set("total", tj);
    json::Value inJ = json::Value::array();
    for (int64_t id : r.modifiedInputs)
      inJ.push(id);
    pj.set("inputs_unchanged", r.inputsUnchanged);
    pj.set("modified_inputs", inJ);
    if (!r.converted.empty()) {
      // Host-side layout conversion (AoS -> SoA): not part of any kernel or
      // total time above.
      json::Value lc = json::Value::object();
      lc.set("method", "host gather (steady clock) + cuMemcpyHtoD (events), "
                       "once per run, not in kernel time");
      json::Value bl = json::Value::array();
      for (const ConvertedBuffer &c : r.converted) {
        const Buffer &b = *c.buffer;
        json::Value bj = json::Value::object();
        bj.set("buffer", b.id);
        bj.set("name", b.name);
        bj.set("kind", "aos-field");
        bj.set("source", b.derived.source);
        bj.set("record", b.derived.record);
        bj.set("field", b.derived.field);
        bj.set("dtype", dtypeName(b.dtype));
        bj.set("bytes", b.bytes);
        bj.set("host_ms", c.hostMs);
        bj.set("upload_ms", c.uploadMs);
        bl.push(bj);
      }
      lc.set("buffers", bl);
      lc.set("bytes", r.conversionBytes());
      lc.set("host_ms", r.conversionHostMs());
      lc.set("upload_ms", r.conversionUploadMs());
      lc.set("total_ms", r.conversionHostMs() + r.conversionUploadMs());
      pj.set("layout_conversion", lc);
    }
    if (r.manifest->numDerivedOutputs()) {
      json::Value lb = json::Value::object();
      lb.set("method", "download of every output (steady clock) + host "
                       "scatter of derived outputs and pass-through fields, "
                       "once per run, not in kernel time");
      lb.set("buffers", static_cast<int64_t>(r.manifest->numDerivedOutputs()));
      lb.set("bytes", r.assemblyBytes);
      lb.set("download_ms", r.assemblyDownloadMs);
      lb.set("host_ms", r.assemblyHostMs);
      lb.set("total_ms", r.assemblyDownloadMs + r.assemblyHostMs);
      pj.set("layout_conversion_back", lb);
    }
    pipes.set(labels[k], pj);
  }
  report.set("pipelines", pipes);
  json::Value red = json::Value::object();
  red.set("baseline_model_bytes", modelBytes(*manifests[0]));
  red.set("optimized_model_bytes", modelBytes(*manifests[1]));
  red.set("factor",
          reductionFactor(modelBytes(*manifests[0]), modelBytes(*manifests[1])));
  report.set("bytes_reduction_model", red);
  // Slower than the baseline: by graph replay where both pipelines have it
  // (an event pair around microsecond kernels measures launch overhead),
  // else by the event timing.
  bool byGraph = results[0].graphTimed && results[1].graphTimed;
  double cmpMs[2] = {byGraph ? results[0].graph.medianMs : totalMs[0],
                     byGraph ? results[1].graph.medianMs : totalMs[1]};
  if (o.timing) {
    report.set("speedup", totalMs[0] / totalMs[1]);
    report.set("optimized_slower_than_baseline", cmpMs[1] > cmpMs[0]);
    report.set("slower_than_baseline_timing",
               byGraph ? "graph_replay" : "events");
  }
  json::Value ver = json::Value::object();
  ver.set("passed", allPassed);
  json::Value cj = json::Value::array();
  for (const Check &c : checks)
    cj.push(checkJson(c));
  ver.set("checks", cj);
  report.set("verification", ver);

  // Table.
  std::printf("memopt-run %s: %s (%s, %d SMs), driver %d.%d, seed %llu\n",
              o.name.c_str(), dev.name.c_str(), arch.c_str(), dev.smCount,
              dev.driverVersion / 1000, (dev.driverVersion % 1000) / 10,
              (unsigned long long)o.seed);
  if (o.timing)
    std::printf("timing: %d warm-up + %d timed runs, median; copy bandwidth "
                "(cuMemcpyDtoD %.0f MiB, read+write): %.1f GB/s\n",
                o.warmup, o.iters,
                static_cast<double>(copy.bufferBytes) / (1 << 20),
                copy.gbPerSecond);
  else
    std::printf("timing: off (--no-timing), verification only\n");
  std::printf("CPU reference: %.2f s\n\n", refSeconds);
  std::printf("%-9s %4s %-28s %-16s %-12s %10s %10s %10s %9s\n", "pipeline",
              "step", "kernel", "grid", "block", "model MB r", "model MB w",
              "median ms", "GB/s");
  for (int k = 0; k < 2; ++k) {
    const Manifest &m = *manifests[k];
    for (size_t i = 0; i < m.schedule.size(); ++i) {
      const Step &st = m.schedule[i];
      auto d3 = [](const std::array<unsigned, 3> &d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
               std::to_string(d[2]);
      };
      std::string ms = "-", gbps = "-";
      if (results[k].timed) {
        double t = results[k].timing.stepMedianMs[i];
        ms = fmt("%.4f", t);
        gbps = fmt("%.1f", gbPerSecond(
                               static_cast<double>(st.bytesRead + st.bytesWritten), t));
      }
      bool launch = st.kind == Step::Kind::Launch;
      const PipelineResult &r = results[k];
      std::string grid = "-";
      if (launch) {
        grid = d3(r.grids.empty() ? st.grid : r.grids[i]);
        if (!r.activeClusters.empty() && r.activeClusters[i] >= 0)
          grid += "/" + std::to_string(r.activeClusters[i]) + "c";
      }
      std::printf("%-9s %4zu %-28s %-16s %-12s %10.1f %10.1f %10s %9s\n",
                  labels[k], i, st.label().c_str(), grid.c_str(),
                  launch ? d3(st.block).c_str() : "-", st.bytesRead / 1e6,
                  st.bytesWritten / 1e6, ms.c_str(), gbps.c_str());
    }
  }
  std::printf("\n%-9s %7s %11s %10s %10s %10s %8s\n", "pipeline", "kernels",
              "model MB", "min MB", "median ms", "eff GB/s", "%copy");
  for (int k = 0; k < 2; ++k) {
    const Manifest &m = *manifests[k];
    std::string ms = "-", eff = "-", frac = "-";
    if (results[k].timed) {
      double e = gbPerSecond(static_cast<double>(m.minBytes), totalMs[k]);
      ms = fmt("%.4f", totalMs[k]);
      eff = fmt("%.1f", e);
      frac = fmt("%.1f%%", 100.0 * fractionOf(e, copy.gbPerSecond));
    }
    std::printf("%-9s %7zu %11.1f %10.1f %10s %10s %8s\n", labels[k],
                m.schedule.size(), modelBytes(m) / 1e6, m.minBytes / 1e6,
                ms.c_str(), eff.c_str(), frac.c_str());
  }
  for (int k = 0; k < 2; ++k) {
    const PipelineResult &r = results[k];
    if (r.graphTimed)
      std::printf("%-9s graph replay (%d runs per graph, median of %zu): "
                  "%.4f ms per run\n",
                  labels[k], r.graph.runsPerGraph, r.graph.samples.size(),
                  r.graph.medianMs);
    else if (r.timed)
      std::printf("%-9s graph replay: %s\n", labels[k], r.graphWhy.c_str());
  }
  for (int k = 0; k < 2; ++k) {
    const PipelineResult &r = results[k];
    if (r.manifest->numDerivedOutputs())
      std::printf("\nlayout conversion back %s (not in kernel time): %u "
                  "derived outputs, %.1f MB, download %.3f ms + host scatter "
                  "%.3f ms = %.3f ms\n",
                  labels[k], r.manifest->numDerivedOutputs(),
                  r.assemblyBytes / 1e6, r.assemblyDownloadMs,
                  r.assemblyHostMs, r.assemblyDownloadMs + r.assemblyHostMs);
    if (r.converted.empty())
      continue;
    std::printf("\nlayout conversion %s (not in kernel time): %zu buffers, "
                "%.1f MB, host gather %.3f ms + upload %.3f ms = %.3f ms\n",
                labels[k], r.converted.size(), r.conversionBytes() / 1e6,
                r.conversionHostMs(), r.conversionUploadMs(),
                r.conversionHostMs() + r.conversionUploadMs());
    for (const ConvertedBuffer &c : r.converted)
      std::printf("  buffer %lld %s <- buffer %lld field %lld of %lld: "
                  "%.1f MB, host %.3f ms, upload %.3f ms\n",
                  (long long)c.buffer->id, c.buffer->name.c_str(),
                  (long long)c.buffer->derived.source,
                  (long long)c.buffer->derived.field,
                  (long long)c.buffer->derived.record, c.buffer->bytes / 1e6,
                  c.hostMs, c.uploadMs);
  }
  std::printf("\nbytes moved (model) baseline/optimized: %.2fx",
              reductionFactor(modelBytes(*manifests[0]),
                              modelBytes(*manifests[1])));
  if (o.timing)
    std::printf("   speedup (median time) baseline/optimized: %.2fx",
                totalMs[0] / totalMs[1]);
  std::printf("\n\nverification (max abs / max rel / rel L2, mismatches):\n");
  for (const Check &c : checks) {
    std::printf("  %-4s %-23s buffer %lld %-10s %-4s %.3g / %.3g / %.3g, "
                "%lld of %lld",
                c.informational ? "info" : c.passed() ? "PASS" : "FAIL",
                c.what.c_str(),
                (long long)c.bufferId, c.bufferName.c_str(),
                dtypeName(c.dtype), c.result.maxAbsErr, c.result.maxRelErr,
                c.result.relL2, (long long)c.result.mismatches,
                (long long)c.result.elements);
    if (c.result.firstMismatch >= 0)
      std::printf(", first at %lld: got %.9g expected %.9g",
                  (long long)c.result.firstMismatch, c.result.firstGot,
                  c.result.firstRef);
    std::printf("\n");
    if (c.verdict && c.verdict->judged) {
      std::printf("       %s\n", describeVerdict(*c.verdict).c_str());
    }
  }
  // A warning about the program, not a verdict on the compiler.
  for (const Check &c : checks)
    if (c.verdict && c.verdict->meaningless && c.what == "baseline vs reference")
      std::printf("  warning: output %s: the program's own precision makes "
                  "its literal result meaningless (its literal evaluation "
                  "is off by %.3g of the f64 value's norm)\n",
                  c.bufferName.c_str(), c.verdict->literal.relL2);
  if (o.timing && cmpMs[1] > cmpMs[0])
    std::printf("  warning: the optimized pipeline is slower than the "
                "baseline (%.4f ms against %.4f ms, %s)\n",
                cmpMs[1], cmpMs[0],
                byGraph ? "graph replay" : "event timing");
  for (int k = 0; k < 2; ++k)
    for (int64_t id : results[k].modifiedInputs)
      std::printf("  FAIL %s modified input buffer %lld\n", labels[k],
                  (long long)id);
  std::printf("RESULT: %s\n", allPassed ? "PASS" : "FAIL (verification)");

  if (!o.jsonOut.empty() && (s = writeJsonFile(o.jsonOut, report)).failed())
    return fail(o, s.error());
  return allPassed ? kExitOk : kExitVerificationFailed;
}

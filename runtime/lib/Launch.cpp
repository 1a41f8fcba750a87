//===- Launch.cpp - Running a manifest's schedule on the GPU ----*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements DevicePipeline and the copy-bandwidth probe.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Launch.h"
#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Metrics.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

using namespace memopt::runtime;

static constexpr size_t kJitLogBytes = 1 << 16;

static std::string dim3String(const std::array<unsigned, 3> &d) {
  return "[" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," +
         std::to_string(d[2]) + "]";
}

/// cuLaunchKernelEx's configuration of cluster launch `st` over `grid` on
/// `stream`; `attr` (the cluster shape) must outlive it.
static CUlaunchConfig getClusterLaunch(const Step &st,
                                       const std::array<unsigned, 3> &grid,
                                       CUlaunchAttribute &attr,
                                       CUstream stream) {
  attr = CUlaunchAttribute{};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = st.cluster[0];
  attr.value.clusterDim.y = st.cluster[1];
  attr.value.clusterDim.z = st.cluster[2];
  CUlaunchConfig cfg{};
  cfg.gridDimX = grid[0];
  cfg.gridDimY = grid[1];
  cfg.gridDimZ = grid[2];
  cfg.blockDimX = st.block[0];
  cfg.blockDimY = st.block[1];
  cfg.blockDimZ = st.block[2];
  cfg.sharedMemBytes = st.sharedBytes;
  cfg.hStream = stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
  return buf;
}

namespace {
/// A set of events destroyed on scope exit.
class EventSet {
public:
  explicit EventSet(const CudaDriver &drv) : drv(drv) {}
  ~EventSet() {
    for (CUevent e : events)
      drv.api().cuEventDestroy(e);
  }
  Status create(size_t n) {
    for (size_t i = 0; i < n; ++i) {
      CUevent e = nullptr;
      Status s = drv.check(drv.api().cuEventCreate(&e, CU_EVENT_DEFAULT),
                           "cuEventCreate");
      if (s.failed())
        return s;
      events.push_back(e);
    }
    return Status::ok();
  }
  CUevent operator[](size_t i) const { return events[i]; }

private:
  const CudaDriver &drv;
  std::vector<CUevent> events;
};

/// A device allocation freed on scope exit.
class DeviceBuffer {
public:
  explicit DeviceBuffer(const CudaDriver &drv) : drv(drv) {}
  ~DeviceBuffer() {
    if (ptr)
      drv.api().cuMemFree(ptr);
  }
  Status allocate(int64_t bytes, const std::string &what) {
    return drv.check(drv.api().cuMemAlloc(&ptr, static_cast<size_t>(bytes)),
                     "cuMemAlloc of " + std::to_string(bytes) + " bytes for " +
                         what);
  }
  CUdeviceptr get() const { return ptr; }

private:
  const CudaDriver &drv;
  CUdeviceptr ptr = 0;
};
} // namespace

Expected<std::unique_ptr<DevicePipeline>>
DevicePipeline::create(const CudaDriver &driver, const Manifest &manifest) {
  std::unique_ptr<DevicePipeline> p(new DevicePipeline(driver, manifest));
  const DriverApi &api = driver.api();

  std::string ptx;
  Status s = readFile(manifest.ptxFile, ptx);
  if (s.failed())
    return makeError(ErrorKind::Manifest,
                     manifest.path + ": ptx: " + s.error().message);

  std::vector<char> errorLog(kJitLogBytes, 0), infoLog(kJitLogBytes, 0);
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(
                        kJitLogBytes - 1)),
                    infoLog.data(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(
                        kJitLogBytes - 1))};
  CUresult rc = api.cuModuleLoadDataEx(&p->module, ptx.c_str(), 4, options,
                                       values);
  if (rc != CUDA_SUCCESS) {
    std::string msg = "cannot load PTX module " + manifest.ptxFile +
                      " (target " +
                      (manifest.chip.empty() ? "?" : manifest.chip) +
                      ", device sm_" + std::to_string(driver.info().ccMajor) +
                      std::to_string(driver.info().ccMinor) + ")";
    Error e = driver.check(rc, msg).error();
    std::string log(errorLog.data());
    e.message += "\nJIT error log:\n" + (log.empty() ? "  (empty)" : log);
    return e;
  }

  // Resolve every launched kernel once; raise the shared-memory limit to the
  // largest request of each kernel.
  p->functions.assign(manifest.schedule.size(), nullptr);
  p->grids.resize(manifest.schedule.size());
  p->clustersThatFit.assign(manifest.schedule.size(), -1);
  for (size_t i = 0; i < manifest.schedule.size(); ++i)
    p->grids[i] = manifest.schedule[i].grid;
  for (size_t i = 0; i < manifest.schedule.size(); ++i) {
    const Step &st = manifest.schedule[i];
    if (st.kind != Step::Kind::Launch)
      continue;
    CUfunction f = nullptr;
    rc = api.cuModuleGetFunction(&f, p->module, st.kernel.c_str());
    if (rc == CUDA_ERROR_NOT_FOUND)
      return makeError(ErrorKind::Cuda,
                       manifest.path + ": schedule[" + std::to_string(i) +
                           "].kernel: kernel '" + st.kernel +
                           "' named in the manifest is missing from module " +
                           manifest.ptxFile + " (CUDA_ERROR_NOT_FOUND)");
    if ((s = driver.check(rc, "cuModuleGetFunction('" + st.kernel + "')"))
            .failed())
      return s.error();
    p->functions[i] = f;
    // Static and dynamic shared memory together count against the 48 KiB
    // that need no opt-in: opt in whenever the kernel asks for dynamic
    // shared memory (the kernel's static part is not known here).
    if (st.sharedBytes > 0) {
      if (driver.info().maxSharedOptin > 0 &&
          st.sharedBytes > static_cast<unsigned>(driver.info().maxSharedOptin))
        return makeError(ErrorKind::Cuda,
                         manifest.path + ": schedule[" + std::to_string(i) +
                             "].shared_bytes: kernel '" + st.kernel +
                             "' asks for " + std::to_string(st.sharedBytes) +
                             " bytes of dynamic shared memory; the device "
                             "allows " +
                             std::to_string(driver.info().maxSharedOptin));
      if ((s = driver.check(
               api.cuFuncSetAttribute(
                   f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                   static_cast<int>(st.sharedBytes)),
               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES=" +
                   std::to_string(st.sharedBytes) + ") for kernel '" +
                   st.kernel + "'"))
              .failed())
        return s.error();
    }
    // Clusters over the portable 8 blocks must be allowed per kernel.
    if (st.cluster[0] * st.cluster[1] * st.cluster[2] > 8 &&
        (s = driver.check(
             api.cuFuncSetAttribute(
                 f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
             "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED) for "
             "kernel '" + st.kernel + "'"))
            .failed())
      return s.error();
    // A persistent kernel launches no more clusters than fit at once: a
    // second wave would hold a few clusters' rows back until the first
    // ends. (Other cluster launches only report the number.)
    bool clustered = st.cluster != std::array<unsigned, 3>{1, 1, 1};
    if (clustered && api.cuOccupancyMaxActiveClusters) {
      CUlaunchAttribute attr;
      CUlaunchConfig cfg = getClusterLaunch(st, st.grid, attr, nullptr);
      int clusters = 0;
      CUresult qrc = api.cuOccupancyMaxActiveClusters(&clusters, f, &cfg);
      // Only a persistent launch depends on the answer; for others it is
      // only reported.
      if (st.persistent &&
          (s = driver.check(qrc, "cuOccupancyMaxActiveClusters for kernel '" +
                                     st.kernel + "'"))
              .failed())
        return s.error();
      if (qrc != CUDA_SUCCESS)
        continue;
      p->clustersThatFit[i] = clusters;
      uint64_t fit = uint64_t(std::max(clusters, 1)) * st.cluster[0];
      if (st.persistent && st.grid[1] == 1 && st.grid[2] == 1 &&
          fit < st.grid[0])
        p->grids[i][0] = static_cast<unsigned>(fit);
    }
  }

  p->allocations.assign(manifest.buffers.size(), 0);
  for (const Buffer &b : manifest.buffers) {
    // Aliases share their target's memory; host-only inputs have none.
    if (!b.isAllocated())
      continue;
    // cuMemAlloc rejects 0 bytes; keep a valid, distinct address anyway.
    size_t bytes = static_cast<size_t>(std::max<int64_t>(b.bytes, 1));
    CUdeviceptr ptr = 0;
    rc = api.cuMemAlloc(&ptr, bytes);
    if (rc != CUDA_SUCCESS)
      return driver
          .check(rc, manifest.pipeline + ": cuMemAlloc for buffer " +
                         std::to_string(b.id) + " '" + b.name + "' (" +
                         roleName(b.role) + ", " + std::to_string(b.bytes) +
                         " bytes = " +
                         std::to_string(static_cast<double>(b.bytes) /
                                        (1 << 20)) +
                         " MiB)")
          .error();
    p->allocations[static_cast<size_t>(b.id)] = ptr;
  }
  return p;
}

DevicePipeline::~DevicePipeline() {
  for (CUdeviceptr ptr : allocations)
    if (ptr)
      drv.api().cuMemFree(ptr);
  // Modules are unloaded with the context at exit; the runtime resolves no
  // cuModuleUnload so that it needs only the documented entry points.
}

CUdeviceptr DevicePipeline::address(int64_t id) const {
  int64_t base, offset;
  m.resolve(id, base, offset);
  return allocations[static_cast<size_t>(base)] +
         static_cast<CUdeviceptr>(offset);
}

std::string DevicePipeline::describeLaunch(const Step &st) const {
  const std::array<unsigned, 3> &grid =
      grids.empty() ? st.grid : grids[static_cast<size_t>(&st - &m.schedule[0])];
  std::string s = "kernel '" + st.kernel + "' grid " + dim3String(grid) +
                  (grid != st.grid ? " (persistent; manifest grid " +
                                         dim3String(st.grid) + ")"
                                   : std::string()) +
                  " block " + dim3String(st.block) +
                  (st.cluster == std::array<unsigned, 3>{1, 1, 1}
                       ? std::string()
                       : " cluster " + dim3String(st.cluster)) +
                  " shared " +
                  std::to_string(st.sharedBytes) + " args [";
  for (size_t i = 0; i < st.args.size(); ++i) {
    const KernelArg &a = st.args[i];
    if (i)
      s += ", ";
    switch (a.kind) {
    case KernelArg::Kind::Buffer: {
      const Buffer &b = m.buffers[static_cast<size_t>(a.bufferId)];
      s += "buffer " + std::to_string(a.bufferId) + " (" + b.name + ", " +
           std::to_string(b.bytes) + " B) = " + hex(address(a.bufferId));
      break;
    }
    case KernelArg::Kind::I64:
      s += "i64 " + std::to_string(a.intValue);
      break;
    case KernelArg::Kind::I32:
      s += "i32 " + std::to_string(a.intValue);
      break;
    case KernelArg::Kind::F32:
      s += "f32 " + std::to_string(a.floatValue);
      break;
    }
  }
  return s + "]";
}

Status DevicePipeline::upload(
    const std::vector<std::vector<unsigned char>> &inputs) {
  for (const Buffer &b : m.buffers) {
    if (b.role != BufferRole::Input || b.hostOnly)
      continue;
    if (static_cast<size_t>(b.id) >= inputs.size())
      return makeError(ErrorKind::Manifest,
                       m.path + ": buffers[id=" + std::to_string(b.id) +
                           "]: no host data for this input");
    Status s = uploadBuffer(b.id, inputs[static_cast<size_t>(b.id)]);
    if (s.failed())
      return s;
  }
  return Status::ok();
}

Status DevicePipeline::uploadBuffer(int64_t id,
                                    const std::vector<unsigned char> &data) {
  const Buffer &b = m.buffers[static_cast<size_t>(id)];
  std::string ctx = m.path + ": buffers[id=" + std::to_string(id) + "]";
  if (b.role != BufferRole::Input || b.hostOnly)
    return makeError(ErrorKind::Manifest,
                     ctx + ": only inputs with a device allocation are "
                           "uploaded");
  if (static_cast<int64_t>(data.size()) != b.bytes)
    return makeError(ErrorKind::Manifest,
                     ctx + ": host input has " + std::to_string(data.size()) +
                         " bytes, manifest says " + std::to_string(b.bytes));
  if (b.bytes == 0)
    return Status::ok();
  return drv.check(
      drv.api().cuMemcpyHtoD(address(b.id), data.data(), data.size()),
      "cuMemcpyHtoD of input buffer " + std::to_string(b.id));
}

Expected<double>
DevicePipeline::uploadBufferTimed(int64_t id,
                                  const std::vector<unsigned char> &data) {
  const DriverApi &api = drv.api();
  EventSet events(drv);
  Status s = events.create(2);
  if (s.failed())
    return s.error();
  // Drain earlier work so that the interval holds only this copy.
  if ((s = drv.check(api.cuCtxSynchronize(), "cuCtxSynchronize")).failed() ||
      (s = drv.check(api.cuEventRecord(events[0], nullptr), "cuEventRecord"))
          .failed() ||
      (s = uploadBuffer(id, data)).failed() ||
      (s = drv.check(api.cuEventRecord(events[1], nullptr), "cuEventRecord"))
          .failed() ||
      (s = drv.check(api.cuEventSynchronize(events[1]),
                     "cuEventSynchronize after uploading buffer " +
                         std::to_string(id)))
          .failed())
    return s.error();
  float ms = 0.0f;
  if ((s = drv.check(api.cuEventElapsedTime(&ms, events[0], events[1]),
                     "cuEventElapsedTime"))
          .failed())
    return s.error();
  return static_cast<double>(ms);
}

Status DevicePipeline::poison() {
  for (const Buffer &b : m.buffers) {
    if ((b.role != BufferRole::Output && b.role != BufferRole::Temp) ||
        b.hostOnly)
      continue;
    if (b.bytes == 0)
      continue;
    Status s = drv.check(drv.api().cuMemsetD8(address(b.id), kPoisonByte,
                                              static_cast<size_t>(b.bytes)),
                         "cuMemsetD8 (poison) of buffer " +
                             std::to_string(b.id));
    if (s.failed())
      return s;
  }
  return Status::ok();
}

Status DevicePipeline::launch(size_t stepIndex, CUstream stream) {
  const Step &st = m.schedule[stepIndex];
  const DriverApi &api = drv.api();
  if (st.kind == Step::Kind::Copy) {
    size_t bytes = static_cast<size_t>(st.copyBytes);
    CUresult rc = stream ? api.cuMemcpyDtoDAsync(address(st.dst),
                                                 address(st.src), bytes, stream)
                         : api.cuMemcpyDtoD(address(st.dst), address(st.src),
                                            bytes);
    return drv.check(rc,
                     m.pipeline + " schedule[" + std::to_string(stepIndex) +
                         "]: cuMemcpyDtoD buffer " + std::to_string(st.src) +
                         " -> " + std::to_string(st.dst) + " (" +
                         std::to_string(st.copyBytes) + " bytes)");
  }
  // Argument storage must outlive the call; one 8-byte slot per argument.
  std::vector<uint64_t> storage(st.args.size(), 0);
  std::vector<void *> params(st.args.size(), nullptr);
  for (size_t i = 0; i < st.args.size(); ++i) {
    const KernelArg &a = st.args[i];
    void *slot = &storage[i];
    switch (a.kind) {
    case KernelArg::Kind::Buffer: {
      CUdeviceptr p = address(a.bufferId);
      std::memcpy(slot, &p, sizeof(p));
      break;
    }
    case KernelArg::Kind::I64: {
      int64_t v = a.intValue;
      std::memcpy(slot, &v, sizeof(v));
      break;
    }
    case KernelArg::Kind::I32: {
      int32_t v = static_cast<int32_t>(a.intValue);
      std::memcpy(slot, &v, sizeof(v));
      break;
    }
    case KernelArg::Kind::F32: {
      float v = a.floatValue;
      std::memcpy(slot, &v, sizeof(v));
      break;
    }
    }
    params[i] = slot;
  }
  CUresult rc;
  if (st.cluster != std::array<unsigned, 3>{1, 1, 1}) {
    if (!api.cuLaunchKernelEx)
      return makeError(ErrorKind::Cuda,
                       m.pipeline + " schedule[" + std::to_string(stepIndex) +
                           "]: thread-block clusters need cuLaunchKernelEx "
                           "(CUDA 12 driver or newer)");
    CUlaunchAttribute attr;
    CUlaunchConfig cfg = getClusterLaunch(st, grids[stepIndex], attr, stream);
    rc = api.cuLaunchKernelEx(&cfg, functions[stepIndex],
                              params.empty() ? nullptr : params.data(),
                              nullptr);
  } else {
    rc = api.cuLaunchKernel(functions[stepIndex], st.grid[0], st.grid[1],
                            st.grid[2], st.block[0], st.block[1], st.block[2],
                            st.sharedBytes, stream,
                            params.empty() ? nullptr : params.data(), nullptr);
  }
  return drv.check(rc, m.pipeline + " schedule[" + std::to_string(stepIndex) +
                           "]: cuLaunchKernel failed for " +
                           describeLaunch(st));
}

Status DevicePipeline::run(bool syncEachStep) {
  for (size_t i = 0; i < m.schedule.size(); ++i) {
    Status s = launch(i);
    if (s.failed())
      return s;
    if (!syncEachStep)
      continue;
    const Step &st = m.schedule[i];
    s = drv.check(drv.api().cuCtxSynchronize(),
                  m.pipeline + " schedule[" + std::to_string(i) + "]: " +
                      (st.kind == Step::Kind::Launch
                           ? "kernel failed: " + describeLaunch(st)
                           : "copy " + std::to_string(st.src) + " -> " +
                                 std::to_string(st.dst) + " failed"));
    if (s.failed())
      return s;
  }
  return drv.check(drv.api().cuCtxSynchronize(),
                   m.pipeline + ": cuCtxSynchronize after the schedule");
}

Status DevicePipeline::download(int64_t id, std::vector<unsigned char> &out) {
  const Buffer &b = m.buffers[static_cast<size_t>(id)];
  if (b.hostOnly)
    return makeError(ErrorKind::Manifest,
                     m.path + ": buffers[id=" + std::to_string(id) +
                         "]: host_only buffer has no device copy");
  out.resize(static_cast<size_t>(b.bytes));
  if (b.bytes == 0)
    return Status::ok();
  return drv.check(drv.api().cuMemcpyDtoH(out.data(), address(id), out.size()),
                   "cuMemcpyDtoH of buffer " + std::to_string(id));
}

Expected<PipelineTiming> DevicePipeline::time(int warmup, int iters) {
  const DriverApi &api = drv.api();
  size_t n = m.schedule.size();
  EventSet events(drv);
  Status s = events.create(n + 1);
  if (s.failed())
    return s.error();
  PipelineTiming t;
  t.stepSamples.assign(n, {});
  for (int it = 0; it < warmup + iters; ++it) {
    if ((s = poison()).failed())
      return s.error();
    if ((s = drv.check(api.cuEventRecord(events[0], nullptr),
                       "cuEventRecord"))
            .failed())
      return s.error();
    for (size_t i = 0; i < n; ++i) {
      if ((s = launch(i)).failed())
        return s.error();
      if ((s = drv.check(api.cuEventRecord(events[i + 1], nullptr),
                         "cuEventRecord"))
              .failed())
        return s.error();
    }
    if ((s = drv.check(api.cuEventSynchronize(events[n]),
                       m.pipeline + ": timed run " + std::to_string(it) +
                           " failed"))
            .failed())
      return s.error();
    if (it < warmup)
      continue;
    float total = 0.0f;
    for (size_t i = 0; i < n; ++i) {
      float ms = 0.0f;
      if ((s = drv.check(
               api.cuEventElapsedTime(&ms, events[i], events[i + 1]),
               "cuEventElapsedTime"))
              .failed())
        return s.error();
      t.stepSamples[i].push_back(ms);
    }
    if ((s = drv.check(api.cuEventElapsedTime(&total, events[0], events[n]),
                       "cuEventElapsedTime"))
            .failed())
      return s.error();
    t.totalSamples.push_back(total);
  }
  for (size_t i = 0; i < n; ++i)
    t.stepMedianMs.push_back(median(t.stepSamples[i]));
  t.totalMedianMs = median(t.totalSamples);
  t.totalMinMs = *std::min_element(t.totalSamples.begin(), t.totalSamples.end());
  t.totalMaxMs = *std::max_element(t.totalSamples.begin(), t.totalSamples.end());
  return t;
}

Expected<GraphTiming> DevicePipeline::timeGraph(int runsPerGraph, int warmup,
                                                int iters) {
  const DriverApi &api = drv.api();
  if (!api.cuStreamCreate || !api.cuStreamDestroy || !api.cuStreamSynchronize ||
      !api.cuStreamBeginCapture || !api.cuStreamEndCapture ||
      !api.cuGraphInstantiateWithFlags || !api.cuGraphLaunch ||
      !api.cuGraphExecDestroy || !api.cuGraphDestroy || !api.cuMemcpyDtoDAsync)
    return makeError(ErrorKind::Cuda,
                     m.pipeline + ": graph-replay timing needs stream capture "
                                  "and graphs (CUDA 11.4 driver or newer)");
  if (runsPerGraph < 1 || iters < 1)
    return makeError(ErrorKind::Usage,
                     m.pipeline + ": graph-replay timing needs at least one "
                                  "run per graph and one timed replay");
  // Resources released on every path.
  struct Resources {
    const DriverApi &api;
    CUstream stream = nullptr;
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    ~Resources() {
      if (exec)
        api.cuGraphExecDestroy(exec);
      if (graph)
        api.cuGraphDestroy(graph);
      if (stream)
        api.cuStreamDestroy(stream);
    }
  } r{api};
  // A non-blocking stream: capture on it does not involve the legacy
  // default stream.
  constexpr unsigned kStreamNonBlocking = 0x1;
  constexpr int kCaptureModeThreadLocal = 1;
  // (The poisoning memsets run on the legacy stream, which the capture
  // stream does not wait for.)
  Status s = poison();
  if (s.succeeded())
    s = drv.check(api.cuCtxSynchronize(), "cuCtxSynchronize after poisoning");
  if (s.failed() ||
      (s = drv.check(api.cuStreamCreate(&r.stream, kStreamNonBlocking),
                     "cuStreamCreate"))
          .failed() ||
      (s = drv.check(api.cuStreamBeginCapture(r.stream, kCaptureModeThreadLocal),
                     "cuStreamBeginCapture"))
          .failed())
    return s.error();
  for (int k = 0; k < runsPerGraph && s.succeeded(); ++k)
    for (size_t i = 0; i < m.schedule.size() && s.succeeded(); ++i)
      s = launch(i, r.stream);
  // End the capture even after a failed launch (the stream stays usable).
  Status ended = drv.check(api.cuStreamEndCapture(r.stream, &r.graph),
                           "cuStreamEndCapture");
  if (s.failed())
    return s.error();
  if (ended.failed())
    return ended.error();
  if ((s = drv.check(api.cuGraphInstantiateWithFlags(&r.exec, r.graph, 0),
                     "cuGraphInstantiateWithFlags"))
          .failed())
    return s.error();
  EventSet events(drv);
  if ((s = events.create(2)).failed())
    return s.error();
  GraphTiming t;
  t.runsPerGraph = runsPerGraph;
  for (int it = 0; it < warmup + iters; ++it) {
    if ((s = drv.check(api.cuEventRecord(events[0], r.stream),
                       "cuEventRecord"))
            .failed() ||
        (s = drv.check(api.cuGraphLaunch(r.exec, r.stream), "cuGraphLaunch"))
            .failed() ||
        (s = drv.check(api.cuEventRecord(events[1], r.stream),
                       "cuEventRecord"))
            .failed() ||
        (s = drv.check(api.cuEventSynchronize(events[1]),
                       m.pipeline + ": graph replay " + std::to_string(it) +
                           " failed"))
            .failed())
      return s.error();
    if (it < warmup)
      continue;
    float ms = 0.0f;
    if ((s = drv.check(api.cuEventElapsedTime(&ms, events[0], events[1]),
                       "cuEventElapsedTime"))
            .failed())
      return s.error();
    t.samples.push_back(static_cast<double>(ms) / runsPerGraph);
  }
  t.medianMs = median(t.samples);
  t.minMs = *std::min_element(t.samples.begin(), t.samples.end());
  return t;
}

Expected<CopyBandwidth>
memopt::runtime::measureCopyBandwidth(const CudaDriver &driver, int64_t bytes,
                                      int warmup, int iters) {
  const DriverApi &api = driver.api();
  DeviceBuffer src(driver), dst(driver);
  Status s;
  if ((s = src.allocate(bytes, "the copy-bandwidth source")).failed() ||
      (s = dst.allocate(bytes, "the copy-bandwidth destination")).failed())
    return s.error();
  if ((s = driver.check(api.cuMemsetD8(src.get(), 0x5A,
                                       static_cast<size_t>(bytes)),
                        "cuMemsetD8"))
          .failed())
    return s.error();
  EventSet events(driver);
  if ((s = events.create(2)).failed())
    return s.error();
  std::vector<double> samples;
  for (int it = 0; it < warmup + iters; ++it) {
    if ((s = driver.check(api.cuEventRecord(events[0], nullptr),
                          "cuEventRecord"))
            .failed() ||
        (s = driver.check(api.cuMemcpyDtoD(dst.get(), src.get(),
                                           static_cast<size_t>(bytes)),
                          "cuMemcpyDtoD (copy bandwidth)"))
            .failed() ||
        (s = driver.check(api.cuEventRecord(events[1], nullptr),
                          "cuEventRecord"))
            .failed() ||
        (s = driver.check(api.cuEventSynchronize(events[1]),
                          "cuEventSynchronize (copy bandwidth)"))
            .failed())
      return s.error();
    if (it < warmup)
      continue;
    float ms = 0.0f;
    if ((s = driver.check(api.cuEventElapsedTime(&ms, events[0], events[1]),
                          "cuEventElapsedTime"))
            .failed())
      return s.error();
    samples.push_back(ms);
  }
  CopyBandwidth bw;
  bw.bufferBytes = bytes;
  bw.iterations = iters;
  bw.medianMs = median(samples);
  bw.gbPerSecond =
      gbPerSecond(copyBytesCounted(static_cast<double>(bytes)), bw.medianMs);
  return bw;
}

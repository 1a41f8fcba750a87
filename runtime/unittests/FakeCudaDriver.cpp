//===- FakeCudaDriver.cpp - Host-only stand-in for libcuda ------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements a fake CUDA driver library for tests on machines
// without a GPU. "Device" memory is host memory, launches run a few known
// kernels on the host by name, and events read the host clock. It exports
// exactly the entry points the runtime resolves, with the driver's
// signatures, so memopt-run can be exercised end to end with
// --cuda-driver <this library>.
//
// Modules: the PTX text's ".entry <name>" declarations define its kernels;
// a module containing "FAKE_SYNTAX_ERROR" fails to load with a JIT log.
// Kernels (chosen by name suffix):
//   *_add(a, b, out, n):    out[i] = a[i] + b[i]        (f32, n elements)
//   *_addone(a, b, out, n): out[i] = a[i] + b[i] + 1    (a wrong kernel)
//   *_scale(x, out, n, s):  out[i] = x[i] * s           (i64 n, f32 s)
//   *_fault(...):           fails with CUDA_ERROR_ILLEGAL_ADDRESS
// Allocations above 64 GiB fail with CUDA_ERROR_OUT_OF_MEMORY.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Driver.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct FakeModule {
  std::vector<std::string> kernels;
};
struct FakeFunction {
  std::string name;
};
struct FakeEvent {
  double ms = 0.0;
};
int pendingError = 0; // sticky asynchronous error reported at synchronize
/// Stream capture: launches on a capturing stream are recorded (with copies
/// of their argument slots) instead of run; a graph replays them in order.
struct FakeLaunch {
  void *fn = nullptr;
  std::vector<uint64_t> slots; // empty for a copy
  unsigned long long dst = 0, src = 0;
  size_t bytes = 0;
};
struct FakeGraph {
  std::vector<FakeLaunch> launches;
};
FakeGraph *capturing = nullptr;
void *captureStream = nullptr;
} // namespace

using CUresult = int;
using CUdeviceptr = unsigned long long;

static double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

static bool endsWith(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

extern "C" {
CUresult cuInit(unsigned) {
  // Each test initializes afresh; forget a fault injected by an earlier one.
  pendingError = 0;
  return 0;
}
CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return 0;
}
CUresult cuDeviceGet(int *dev, int ordinal) {
  if (ordinal != 0)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *dev = 0;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int) {
  std::strncpy(name, "memopt fake device", static_cast<size_t>(len));
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int) {
  switch (attr) {
  case 75:
    *v = 9;
    return 0;
  case 76:
    *v = 0;
    return 0;
  case 16:
    *v = 1;
    return 0;
  case 97:
    *v = 232448;
    return 0;
  default:
    *v = 0;
    return 0;
  }
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  static int token;
  *ctx = &token;
  return 0;
}
CUresult cuCtxSetCurrent(void *) { return 0; }
CUresult cuCtxSynchronize() {
  int e = pendingError;
  return e;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n,
                            int *options, void **values) {
  std::string text(static_cast<const char *>(image));
  if (text.find("FAKE_SYNTAX_ERROR") != std::string::npos) {
    for (unsigned i = 0; i < n; ++i) {
      if (options[i] != 5)
        continue;
      std::strcpy(static_cast<char *>(values[i]),
                  "ptxas fatal   : fake syntax error near FAKE_SYNTAX_ERROR");
    }
    return 218; // CUDA_ERROR_INVALID_PTX
  }
  auto *m = new FakeModule;
  size_t pos = 0;
  while ((pos = text.find(".entry ", pos)) != std::string::npos) {
    pos += 7;
    size_t end = text.find_first_of("( \n", pos);
    m->kernels.push_back(text.substr(pos, end - pos));
  }
  *module = m;
  return 0;
}
CUresult cuModuleGetFunction(void **fn, void *module, const char *name) {
  auto *m = static_cast<FakeModule *>(module);
  for (const std::string &k : m->kernels) {
    if (k == name) {
      *fn = new FakeFunction{k};
      return 0;
    }
  }
  return 500; // CUDA_ERROR_NOT_FOUND
}
CUresult cuFuncSetAttribute(void *, int, int) { return 0; }
CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  if (bytes > (size_t(64) << 30))
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  void *p = std::malloc(bytes);
  if (!p)
    return 2;
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr ptr) {
  std::free(reinterpret_cast<void *>(ptr));
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
  std::memcpy(reinterpret_cast<void *>(dst), src, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), n);
  return 0;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  std::memmove(reinterpret_cast<void *>(dst),
               reinterpret_cast<const void *>(src), n);
  return 0;
}
CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
  std::memset(reinterpret_cast<void *>(dst), v, n);
  return 0;
}
/// Argument slots the fake kernel `name` reads.
static size_t fakeArgCount(const std::string &name) {
  if (endsWith(name, "_fieldsum"))
    return 6;
  if (endsWith(name, "_recscale"))
    return 3;
  if (endsWith(name, "_fault"))
    return 0;
  return 4;
}

CUresult cuLaunchKernel(void *fn, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, void *stream,
                        void **params, void **) {
  const std::string &name = static_cast<FakeFunction *>(fn)->name;
  if (capturing && stream == captureStream) {
    FakeLaunch l;
    l.fn = fn;
    for (size_t i = 0, n = fakeArgCount(name); i < n; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, params[i], sizeof(v));
      l.slots.push_back(v);
    }
    capturing->launches.push_back(std::move(l));
    return 0;
  }
  auto ptr = [&](int i) {
    CUdeviceptr p;
    std::memcpy(&p, params[i], sizeof(p));
    return reinterpret_cast<float *>(p);
  };
  auto i64 = [&](int i) {
    int64_t v;
    std::memcpy(&v, params[i], sizeof(v));
    return v;
  };
  if (endsWith(name, "_add") || endsWith(name, "_addone") ||
      endsWith(name, "_addscaled")) {
    float bias = endsWith(name, "_addone") ? 1.0f : 0.0f;
    float scale = endsWith(name, "_addscaled") ? 1.1f : 1.0f;
    float *a = ptr(0), *b = ptr(1), *out = ptr(2);
    for (int64_t i = 0, n = i64(3); i < n; ++i)
      out[i] = (a[i] + b[i]) * scale + bias;
    return 0;
  }
  if (endsWith(name, "_scale")) {
    float s;
    std::memcpy(&s, params[3], sizeof(s));
    float *x = ptr(0), *out = ptr(1);
    for (int64_t i = 0, n = i64(2); i < n; ++i)
      out[i] = x[i] * s;
    return 0;
  }
  if (endsWith(name, "_fieldsum")) {
    // AoS: args p, out, n, record, fa, fb; out[i] = p[i].fa + 2 * p[i].fb.
    float *p = ptr(0), *out = ptr(1);
    int64_t record = i64(3), fa = i64(4), fb = i64(5);
    for (int64_t i = 0, n = i64(2); i < n; ++i)
      out[i] = p[i * record + fa] + 2.0f * p[i * record + fb];
    return 0;
  }
  if (endsWith(name, "_soasum")) {
    // SoA: args a, b, out, n; out[i] = a[i] + 2 * b[i].
    float *a = ptr(0), *b = ptr(1), *out = ptr(2);
    for (int64_t i = 0, n = i64(3); i < n; ++i)
      out[i] = a[i] + 2.0f * b[i];
    return 0;
  }
  if (endsWith(name, "_recscale")) {
    // Records of 4 f32: out = (2 p.0, 2 p.1, p.2, p.3); args p, out, n.
    float *p = ptr(0), *out = ptr(1);
    for (int64_t i = 0, n = i64(2); i < n; ++i)
      for (int f = 0; f < 4; ++f)
        out[i * 4 + f] = f < 2 ? 2.0f * p[i * 4 + f] : p[i * 4 + f];
    return 0;
  }
  if (endsWith(name, "_fieldscale")) {
    // The same with fields 0 and 1 returned as arrays; args p, f0, f1, n.
    float *p = ptr(0), *f0 = ptr(1), *f1 = ptr(2);
    for (int64_t i = 0, n = i64(3); i < n; ++i) {
      f0[i] = 2.0f * p[i * 4];
      f1[i] = 2.0f * p[i * 4 + 1];
    }
    return 0;
  }
  if (endsWith(name, "_fault")) {
    pendingError = 700; // CUDA_ERROR_ILLEGAL_ADDRESS, reported at sync
    return 0;
  }
  return 1; // CUDA_ERROR_INVALID_VALUE: unknown kernel behaviour
}
// Cluster launches: the fake runs them like any launch, and records the
// cluster shape for the tests (memopt_fake_last_cluster).
unsigned memopt_fake_last_cluster[3] = {0, 0, 0};
CUresult cuLaunchKernelEx(const memopt::runtime::CUlaunchConfig *cfg,
                          void *fn, void **params, void **extra) {
  using memopt::runtime::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  for (unsigned i = 0; i < cfg->numAttrs; ++i)
    if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      memopt_fake_last_cluster[0] = cfg->attrs[i].value.clusterDim.x;
      memopt_fake_last_cluster[1] = cfg->attrs[i].value.clusterDim.y;
      memopt_fake_last_cluster[2] = cfg->attrs[i].value.clusterDim.z;
    }
  return cuLaunchKernel(fn, cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ,
                        cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ,
                        cfg->sharedMemBytes, cfg->hStream, params, extra);
}
// Persistent launches ask how many clusters fit at once.
int memopt_fake_max_active_clusters = 1000;
CUresult cuOccupancyMaxActiveClusters(int *n, void *,
                                      const memopt::runtime::CUlaunchConfig *) {
  *n = memopt_fake_max_active_clusters;
  return 0;
}
CUresult cuEventCreate(void **e, unsigned) {
  *e = new FakeEvent;
  return 0;
}
CUresult cuEventRecord(void *e, void *) {
  static_cast<FakeEvent *>(e)->ms = nowMs();
  return 0;
}
CUresult cuEventSynchronize(void *) { return pendingError; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) {
  *ms = static_cast<float>(static_cast<FakeEvent *>(b)->ms -
                           static_cast<FakeEvent *>(a)->ms);
  return 0;
}
CUresult cuEventDestroy_v2(void *e) {
  delete static_cast<FakeEvent *>(e);
  return 0;
}
CUresult cuStreamCreate(void **stream, unsigned) {
  *stream = new int(0);
  return 0;
}
CUresult cuStreamDestroy_v2(void *stream) {
  delete static_cast<int *>(stream);
  return 0;
}
CUresult cuStreamSynchronize(void *) { return pendingError; }
CUresult cuStreamBeginCapture_v2(void *stream, int) {
  if (capturing)
    return 900; // CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
  capturing = new FakeGraph;
  captureStream = stream;
  return 0;
}
CUresult cuStreamEndCapture(void *stream, void **graph) {
  if (!capturing || stream != captureStream)
    return 901; // CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
  *graph = capturing;
  capturing = nullptr;
  captureStream = nullptr;
  return 0;
}
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph,
                                     unsigned long long) {
  *exec = new FakeGraph(*static_cast<FakeGraph *>(graph));
  return 0;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n,
                              void *stream) {
  if (capturing && stream == captureStream) {
    FakeLaunch l;
    l.dst = dst;
    l.src = src;
    l.bytes = n;
    capturing->launches.push_back(l);
    return 0;
  }
  return cuMemcpyDtoD_v2(dst, src, n);
}
CUresult cuGraphLaunch(void *exec, void *) {
  for (FakeLaunch &l : static_cast<FakeGraph *>(exec)->launches) {
    if (!l.fn) {
      cuMemcpyDtoD_v2(l.dst, l.src, l.bytes);
      continue;
    }
    std::vector<void *> params;
    for (uint64_t &v : l.slots)
      params.push_back(&v);
    if (CUresult rc = cuLaunchKernel(l.fn, 1, 1, 1, 1, 1, 1, 0, nullptr,
                                     params.data(), nullptr))
      return rc;
  }
  return 0;
}
CUresult cuGraphExecDestroy(void *exec) {
  delete static_cast<FakeGraph *>(exec);
  return 0;
}
CUresult cuGraphDestroy(void *graph) {
  delete static_cast<FakeGraph *>(graph);
  return 0;
}
CUresult cuGetErrorName(CUresult, const char **name) {
  // Like the stub library: no names, so the runtime's table is exercised.
  *name = nullptr;
  return 1;
}
CUresult cuGetErrorString(CUresult, const char **str) {
  *str = nullptr;
  return 1;
}
} // extern "C"

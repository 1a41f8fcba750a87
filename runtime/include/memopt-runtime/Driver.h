//===- Driver.h - CUDA driver API loaded at run time ------------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares CudaDriver, which dlopens the CUDA driver library
// (libcuda.so.1 by default) and resolves the few driver entry points the
// runtime needs, so that the runtime builds without the CUDA toolkit. The
// types and enum values below mirror cuda.h (same numeric values).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_DRIVER_H
#define MEMOPT_RUNTIME_DRIVER_H

#include "memopt-runtime/Status.h"

#include <cstddef>
#include <string>

namespace memopt::runtime {

/// Driver API types, declared here instead of including cuda.h.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_INSUFFICIENT_DRIVER = 35;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;

constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;

constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;

/// cuLaunchKernelEx's launch attribute and configuration (cuda.h layout).
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union alignas(8) {
    char pad[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(CUlaunchAttribute) == 72 &&
                  offsetof(CUlaunchAttribute, value) == 8,
              "CUlaunchAttribute layout differs from cuda.h");
static_assert(sizeof(CUlaunchConfig) == 56 &&
                  offsetof(CUlaunchConfig, attrs) == 40,
              "CUlaunchConfig layout differs from cuda.h");
constexpr unsigned CU_EVENT_DEFAULT = 0;

/// Returns the cuda.h name of a CUresult ("CUDA_ERROR_NO_DEVICE"), from a
/// built-in table; "CUDA_ERROR_<n>" for codes it does not know.
std::string builtinErrorName(CUresult code);

/// The driver entry points, resolved with dlsym. All calls go through these
/// pointers; every one is non-null after a successful load().
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  /// Null on drivers older than CUDA 12 (only thread-block cluster
  /// launches need it).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **);
  /// Null on drivers older than CUDA 12 (persistent cluster launches then
  /// keep the manifest's grid).
  CUresult (*cuOccupancyMaxActiveClusters)(int *, CUfunction,
                                           const CUlaunchConfig *);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// Streams and graphs, for timing by CUDA-graph replay; null on drivers
  /// without them (DevicePipeline::timeGraph then says so).
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                          unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
};

/// Facts about the selected device, gathered once by CudaDriver::init.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int driverVersion = 0; // e.g. 13000 for 13.0
  int maxSharedOptin = 0;
};

/// Owns the dlopen handle of the driver library and the primary context.
class CudaDriver {
public:
  CudaDriver() = default;
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;
  ~CudaDriver();

  /// dlopens `libraryPath` and resolves every entry point. Failure (kind
  /// NoDriver) names the library and the dlerror() text or missing symbol.
  Status load(const std::string &libraryPath = "libcuda.so.1");

  /// cuInit, selects device `ordinal`, retains and makes current its primary
  /// context, and fills info(). Failure of cuInit or of the device lookup has
  /// kind NoDevice and reads "no CUDA driver/GPU: <error name>: <string>";
  /// later failures have kind Cuda. Precondition: load() succeeded.
  Status init(int ordinal = 0);

  const DriverApi &api() const { return fns; }
  const DeviceInfo &info() const { return device; }

  /// "CUDA_ERROR_X" for a code: the driver's cuGetErrorName when it answers,
  /// otherwise the built-in table (stub libraries do not answer).
  std::string errorName(CUresult code) const;
  /// The driver's description of a code, or "" if it has none.
  std::string errorString(CUresult code) const;
  /// Returns success for CUDA_SUCCESS, else an error of `kind` reading
  /// "<what>: <name> (<description>)".
  Status check(CUresult code, const std::string &what,
               ErrorKind kind = ErrorKind::Cuda) const;

private:
  void *handle = nullptr;
  DriverApi fns{};
  DeviceInfo device;
};

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_DRIVER_H

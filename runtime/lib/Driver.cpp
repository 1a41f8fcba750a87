//===- Driver.cpp - CUDA driver API loaded at run time ----------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements CudaDriver: dlopen/dlsym of the driver entry points,
// device selection and error naming.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Driver.h"

#include <cstring>
#include <dlfcn.h>

using namespace memopt::runtime;

int memopt::runtime::exitCodeFor(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Usage:
  case ErrorKind::Manifest:
  case ErrorKind::Reference:
    return kExitUsage;
  case ErrorKind::NoDriver:
  case ErrorKind::NoDevice:
    return kExitNoGpu;
  case ErrorKind::Cuda:
    return kExitCuda;
  }
  return kExitCuda;
}

std::string memopt::runtime::builtinErrorName(CUresult code) {
  static const struct {
    CUresult code;
    const char *name;
  } kNames[] = {
      {0, "CUDA_SUCCESS"},
      {1, "CUDA_ERROR_INVALID_VALUE"},
      {2, "CUDA_ERROR_OUT_OF_MEMORY"},
      {3, "CUDA_ERROR_NOT_INITIALIZED"},
      {4, "CUDA_ERROR_DEINITIALIZED"},
      {34, "CUDA_ERROR_STUB_LIBRARY"},
      {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
      {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
      {100, "CUDA_ERROR_NO_DEVICE"},
      {101, "CUDA_ERROR_INVALID_DEVICE"},
      {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
      {200, "CUDA_ERROR_INVALID_IMAGE"},
      {201, "CUDA_ERROR_INVALID_CONTEXT"},
      {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
      {218, "CUDA_ERROR_INVALID_PTX"},
      {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
      {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
      {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
      {400, "CUDA_ERROR_INVALID_HANDLE"},
      {500, "CUDA_ERROR_NOT_FOUND"},
      {600, "CUDA_ERROR_NOT_READY"},
      {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
      {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
      {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
      {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
      {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
      {718, "CUDA_ERROR_INVALID_PC"},
      {719, "CUDA_ERROR_LAUNCH_FAILED"},
      {800, "CUDA_ERROR_NOT_PERMITTED"},
      {801, "CUDA_ERROR_NOT_SUPPORTED"},
      {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
      {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
      {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
      {999, "CUDA_ERROR_UNKNOWN"},
  };
  for (const auto &entry : kNames)
    if (entry.code == code)
      return entry.name;
  return "CUDA_ERROR_" + std::to_string(code);
}

CudaDriver::~CudaDriver() {
  // The primary context and the library stay alive until process exit: other
  // objects (modules, allocations) may still be torn down after this one, and
  // unloading the driver under them is undefined.
}

template <typename Fn>
static bool resolve(void *handle, Fn &fn, const char *name,
                    const char *fallback = nullptr) {
  void *sym = dlsym(handle, name);
  if (!sym && fallback)
    sym = dlsym(handle, fallback);
  static_assert(sizeof(fn) == sizeof(sym), "function pointer size");
  std::memcpy(&fn, &sym, sizeof(fn));
  return sym != nullptr;
}

Status CudaDriver::load(const std::string &libraryPath) {
  handle = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return makeError(ErrorKind::NoDriver,
                     "no CUDA driver/GPU: cannot load the CUDA driver library '" +
                         libraryPath + "': " + (why ? why : "unknown error"));
  }
  struct Entry {
    bool ok;
    const char *name;
  };
  // The _v2 names are what cuda.h maps the plain names to; the fallbacks keep
  // older drivers working.
  Entry entries[] = {
      {resolve(handle, fns.cuInit, "cuInit"), "cuInit"},
      {resolve(handle, fns.cuDriverGetVersion, "cuDriverGetVersion"),
       "cuDriverGetVersion"},
      {resolve(handle, fns.cuDeviceGet, "cuDeviceGet"), "cuDeviceGet"},
      {resolve(handle, fns.cuDeviceGetName, "cuDeviceGetName"),
       "cuDeviceGetName"},
      {resolve(handle, fns.cuDeviceGetAttribute, "cuDeviceGetAttribute"),
       "cuDeviceGetAttribute"},
      {resolve(handle, fns.cuDevicePrimaryCtxRetain,
               "cuDevicePrimaryCtxRetain"),
       "cuDevicePrimaryCtxRetain"},
      {resolve(handle, fns.cuCtxSetCurrent, "cuCtxSetCurrent"),
       "cuCtxSetCurrent"},
      {resolve(handle, fns.cuCtxSynchronize, "cuCtxSynchronize"),
       "cuCtxSynchronize"},
      {resolve(handle, fns.cuModuleLoadDataEx, "cuModuleLoadDataEx"),
       "cuModuleLoadDataEx"},
      {resolve(handle, fns.cuModuleGetFunction, "cuModuleGetFunction"),
       "cuModuleGetFunction"},
      {resolve(handle, fns.cuFuncSetAttribute, "cuFuncSetAttribute"),
       "cuFuncSetAttribute"},
      {resolve(handle, fns.cuMemAlloc, "cuMemAlloc_v2"), "cuMemAlloc_v2"},
      {resolve(handle, fns.cuMemFree, "cuMemFree_v2"), "cuMemFree_v2"},
      {resolve(handle, fns.cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
       "cuMemcpyHtoD_v2"},
      {resolve(handle, fns.cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
       "cuMemcpyDtoH_v2"},
      {resolve(handle, fns.cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
       "cuMemcpyDtoD_v2"},
      {resolve(handle, fns.cuMemsetD8, "cuMemsetD8_v2"), "cuMemsetD8_v2"},
      {resolve(handle, fns.cuLaunchKernel, "cuLaunchKernel"),
       "cuLaunchKernel"},
      {resolve(handle, fns.cuEventCreate, "cuEventCreate"), "cuEventCreate"},
      {resolve(handle, fns.cuEventRecord, "cuEventRecord"), "cuEventRecord"},
      {resolve(handle, fns.cuEventSynchronize, "cuEventSynchronize"),
       "cuEventSynchronize"},
      {resolve(handle, fns.cuEventElapsedTime, "cuEventElapsedTime_v2",
               "cuEventElapsedTime"),
       "cuEventElapsedTime"},
      {resolve(handle, fns.cuEventDestroy, "cuEventDestroy_v2",
               "cuEventDestroy"),
       "cuEventDestroy"},
      {resolve(handle, fns.cuGetErrorName, "cuGetErrorName"),
       "cuGetErrorName"},
      {resolve(handle, fns.cuGetErrorString, "cuGetErrorString"),
       "cuGetErrorString"},
  };
  // Optional: launches with thread-block clusters check it.
  resolve(handle, fns.cuLaunchKernelEx, "cuLaunchKernelEx");
  resolve(handle, fns.cuOccupancyMaxActiveClusters,
          "cuOccupancyMaxActiveClusters");
  // Optional: timing by CUDA-graph replay.
  resolve(handle, fns.cuStreamCreate, "cuStreamCreate");
  resolve(handle, fns.cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy");
  resolve(handle, fns.cuStreamSynchronize, "cuStreamSynchronize");
  resolve(handle, fns.cuStreamBeginCapture, "cuStreamBeginCapture_v2",
          "cuStreamBeginCapture");
  resolve(handle, fns.cuStreamEndCapture, "cuStreamEndCapture");
  resolve(handle, fns.cuGraphInstantiateWithFlags,
          "cuGraphInstantiateWithFlags");
  resolve(handle, fns.cuGraphLaunch, "cuGraphLaunch");
  resolve(handle, fns.cuGraphExecDestroy, "cuGraphExecDestroy");
  resolve(handle, fns.cuGraphDestroy, "cuGraphDestroy");
  resolve(handle, fns.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",
          "cuMemcpyDtoDAsync");
  for (const Entry &e : entries) {
    if (e.ok)
      continue;
    dlclose(handle);
    handle = nullptr;
    return makeError(ErrorKind::NoDriver,
                     "no CUDA driver/GPU: '" + libraryPath +
                         "' has no entry point " + e.name +
                         " (not a CUDA driver, or too old)");
  }
  return Status::ok();
}

std::string CudaDriver::errorName(CUresult code) const {
  const char *name = nullptr;
  if (fns.cuGetErrorName && fns.cuGetErrorName(code, &name) == CUDA_SUCCESS &&
      name)
    return name;
  return builtinErrorName(code);
}

std::string CudaDriver::errorString(CUresult code) const {
  const char *str = nullptr;
  if (fns.cuGetErrorString &&
      fns.cuGetErrorString(code, &str) == CUDA_SUCCESS && str)
    return str;
  return "";
}

Status CudaDriver::check(CUresult code, const std::string &what,
                         ErrorKind kind) const {
  if (code == CUDA_SUCCESS)
    return Status::ok();
  std::string msg = what + ": " + errorName(code);
  std::string desc = errorString(code);
  if (!desc.empty())
    msg += " (" + desc + ")";
  return makeError(kind, msg);
}

Status CudaDriver::init(int ordinal) {
  auto noGpu = [&](CUresult code, const std::string &what) {
    std::string desc = errorString(code);
    return makeError(ErrorKind::NoDevice,
                     "no CUDA driver/GPU: " + errorName(code) +
                         (desc.empty() ? "" : " (" + desc + ")") + " from " +
                         what);
  };
  CUresult rc = fns.cuInit(0);
  if (rc != CUDA_SUCCESS)
    return noGpu(rc, "cuInit");
  CUdevice dev;
  rc = fns.cuDeviceGet(&dev, ordinal);
  if (rc != CUDA_SUCCESS)
    return noGpu(rc, "cuDeviceGet(" + std::to_string(ordinal) + ")");
  device.ordinal = ordinal;
  char name[256] = {0};
  Status s = check(fns.cuDeviceGetName(name, sizeof(name) - 1, dev),
                   "cuDeviceGetName");
  if (s.failed())
    return s;
  device.name = name;
  struct {
    int attr;
    int *out;
  } attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &device.ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &device.ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &device.smCount},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &device.maxSharedOptin},
  };
  for (auto &a : attrs) {
    s = check(fns.cuDeviceGetAttribute(a.out, a.attr, dev),
              "cuDeviceGetAttribute(" + std::to_string(a.attr) + ")");
    if (s.failed())
      return s;
  }
  if ((s = check(fns.cuDriverGetVersion(&device.driverVersion),
                 "cuDriverGetVersion"))
          .failed())
    return s;
  CUcontext ctx = nullptr;
  if ((s = check(fns.cuDevicePrimaryCtxRetain(&ctx, dev),
                 "cuDevicePrimaryCtxRetain"))
          .failed())
    return s;
  return check(fns.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

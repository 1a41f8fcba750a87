//===- Launch.h - Running a manifest's schedule on the GPU ------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares DevicePipeline, the GPU side of one manifest: its PTX
// module and kernels, its device buffers, and the host schedule (launch and
// copy steps on the default stream), plus event-based timing and the
// device-to-device copy bandwidth probe.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_LAUNCH_H
#define MEMOPT_RUNTIME_LAUNCH_H

#include "memopt-runtime/Driver.h"
#include "memopt-runtime/Manifest.h"

#include <memory>
#include <string>
#include <vector>

namespace memopt::runtime {

/// Per-step and whole-schedule timings, in milliseconds.
struct PipelineTiming {
  /// stepSamples[i][k]: time of step i in measured iteration k.
  std::vector<std::vector<double>> stepSamples;
  std::vector<double> totalSamples;
  std::vector<double> stepMedianMs;
  double totalMedianMs = 0.0, totalMinMs = 0.0, totalMaxMs = 0.0;
};

/// Result of DevicePipeline::timeGraph: milliseconds per run of the schedule.
struct GraphTiming {
  int runsPerGraph = 0;
  std::vector<double> samples;
  double medianMs = 0.0, minMs = 0.0;
};

/// Result of the copy-bandwidth probe.
struct CopyBandwidth {
  int64_t bufferBytes = 0; ///< size of one copy
  double medianMs = 0.0;
  double gbPerSecond = 0.0; ///< over 2 * bufferBytes (read + written)
  int iterations = 0;
};

class DevicePipeline {
public:
  /// Reads the PTX file, JIT-loads it (the error names the file and carries
  /// the JIT error log), resolves every kernel of the schedule (a kernel
  /// missing from the module is an error naming it), raises the dynamic
  /// shared-memory limit where a launch asks for more than 48 KiB, and
  /// allocates every buffer that is neither an alias nor host-only (out of
  /// memory names the buffer and its size). Errors have kind Manifest (unreadable PTX) or Cuda.
  static Expected<std::unique_ptr<DevicePipeline>>
  create(const CudaDriver &driver, const Manifest &manifest);
  ~DevicePipeline();

  /// Copies host inputs (indexed by buffer id, as makeInputs returns) in:
  /// every input with a device allocation (host-only ones are skipped,
  /// derived ones are uploaded like any input).
  Status upload(const std::vector<std::vector<unsigned char>> &inputs);
  /// Copies one input buffer in; `data` must have exactly its size. Fails
  /// for non-inputs and host-only inputs.
  Status uploadBuffer(int64_t id, const std::vector<unsigned char> &data);
  /// uploadBuffer, timed: synchronizes, then records an event before and
  /// after the copy and returns the elapsed milliseconds between them.
  Expected<double> uploadBufferTimed(int64_t id,
                                     const std::vector<unsigned char> &data);
  /// Writes kPoisonByte over every output and temporary buffer.
  Status poison();
  /// Runs the schedule once. With syncEachStep, synchronizes after every
  /// step so that an asynchronous fault is attributed to its step. A failed
  /// launch names the kernel, grid, block and arguments.
  Status run(bool syncEachStep);
  /// Copies buffer `id` (any role but host-only inputs, which have no device
  /// copy; aliases read their view) to the host.
  Status download(int64_t id, std::vector<unsigned char> &out);
  /// Poisons, then runs the schedule `warmup` + `iters` times, recording an
  /// event between steps; poisoning stays outside the timed interval.
  Expected<PipelineTiming> time(int warmup, int iters);

  /// Latency timing by CUDA-graph replay: the schedule is captured
  /// `runsPerGraph` times into one graph on a stream of its own, the graph
  /// is launched `warmup` + `iters` times, and each replay's time over
  /// `runsPerGraph` is one sample (no launch overhead of the host between
  /// kernels, as frameworks' graph replay runs them). Error kind Cuda when
  /// the driver has no stream capture.
  Expected<GraphTiming> timeGraph(int runsPerGraph, int warmup, int iters);

  const Manifest &manifest() const { return m; }
  /// Device address of a buffer (alias offset applied).
  CUdeviceptr address(int64_t id) const;
  /// "kernel w1_kernel_0 grid [65536,1,1] block [256,1,1] shared 0 args
  /// [buffer 0 (x) = 0x..., i64 256]": used in launch error messages.
  std::string describeLaunch(const Step &step) const;
  /// The grid step `stepIndex` launches: the manifest's, or for a
  /// persistent cluster launch at most the clusters that fit on the device
  /// at once (cuOccupancyMaxActiveClusters).
  const std::array<unsigned, 3> &launchGrid(size_t stepIndex) const {
    return grids[stepIndex];
  }
  /// For a cluster launch, how many of its clusters fit on the device at
  /// once (cuOccupancyMaxActiveClusters); -1 for other steps or when the
  /// driver cannot say.
  int activeClusters(size_t stepIndex) const {
    return clustersThatFit[stepIndex];
  }

private:
  DevicePipeline(const CudaDriver &driver, const Manifest &manifest)
      : drv(driver), m(manifest) {}
  Status launch(size_t stepIndex, CUstream stream = nullptr);

  const CudaDriver &drv;
  const Manifest &m;
  CUmodule module = nullptr;
  std::vector<CUfunction> functions;     // per step (null for copies)
  /// Per step: the grid launched (a persistent step's may be smaller than
  /// the manifest's).
  std::vector<std::array<unsigned, 3>> grids;
  std::vector<int> clustersThatFit;
  std::vector<CUdeviceptr> allocations;  // per buffer id (0 for aliases)
};

/// Measures device-to-device copy bandwidth: copies `bytes` between two
/// fresh allocations `warmup` + `iters` times with cuMemcpyDtoD, timing each
/// with events; GB/s counts bytes read plus bytes written.
Expected<CopyBandwidth> measureCopyBandwidth(const CudaDriver &driver,
                                             int64_t bytes, int warmup,
                                             int iters);

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_LAUNCH_H

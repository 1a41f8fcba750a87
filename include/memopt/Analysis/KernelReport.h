//===- KernelReport.h - per-kernel traffic, efficiency and roofline -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything memopt predicts about one kernel, before it runs: DRAM bytes
// (Traffic.h), the sector efficiency of its global accesses and the bank
// conflicts of its shared accesses (AccessPattern.h), the operations it
// executes, its arithmetic intensity and the roofline time bound on a device
// described by its DRAM bandwidth and peak operation rate.
//
// Counting: every access and operation executes once per thread per trip of
// its enclosing scf.for loops (static trip counts); branches are assumed
// taken. Operations are arith/math ops on non-index values (a vector op
// counts its elements); index arithmetic, casts and constants are not
// counted.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_ANALYSIS_KERNELREPORT_H
#define MEMOPT_ANALYSIS_KERNELREPORT_H

#include "mlir/IR/Operation.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::memopt {

/// A device for the roofline.
struct DeviceModel {
  /// DRAM bandwidth in GB/s (H200: 4800).
  double bandwidthGBs = 4800.0;
  /// Peak operation rate in Gop/s (H200 FP32 non-tensor: 66900).
  double peakGops = 66900.0;
};

struct KernelReport {
  std::string name;
  /// Grid and block sizes, when constant (else 0).
  std::array<int64_t, 3> grid{}, block{};
  int64_t bytesRead = 0, bytesWritten = 0;
  /// Useful over fetched bytes of the global accesses, weighted by how often
  /// each executes; nullopt if an access or a count is unknown.
  std::optional<double> sectorEfficiency;
  /// Predicted shared-memory bank conflicts over the grid: wavefronts beyond
  /// the conflict-free number, the quantity Nsight Compute's
  /// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st} count
  /// (loads, stores); -1 when sizes, a trip count or a shared access is
  /// unknown.
  int64_t bankConflictsLoad = -1, bankConflictsStore = -1;
  /// The same per block, known from the block size alone (a gpu.func with
  /// known_block_size and no grid); -1 when the block size, a trip count or
  /// a shared access is unknown.
  int64_t bankConflictsLoadPerBlock = -1, bankConflictsStorePerBlock = -1;
  /// Excess wavefronts per warp-level shared load / store instruction
  /// (0: conflict-free); -1 unknown or no such access.
  double bankConflictsPerWarpLoad = -1, bankConflictsPerWarpStore = -1;
  /// Operations over the grid; -1 when a trip count or size is unknown.
  int64_t ops = -1;
  /// Operations of one block; -1 when a trip count or the block is unknown.
  int64_t opsPerBlock = -1;
  /// Global accesses the lane model could not evaluate.
  int64_t unknownAccesses = 0;

  int64_t bytes() const { return bytesRead + bytesWritten; }
  /// Operations per DRAM byte (-1 unknown).
  double arithmeticIntensity() const {
    return ops < 0 || bytes() == 0 ? -1.0 : double(ops) / double(bytes());
  }
  /// Roofline lower bound on the time in microseconds and what bounds it.
  double memoryTimeUs(const DeviceModel &d) const {
    return double(bytes()) / (d.bandwidthGBs * 1e3);
  }
  double computeTimeUs(const DeviceModel &d) const {
    return ops < 0 ? 0.0 : double(ops) / (d.peakGops * 1e3);
  }
  double boundTimeUs(const DeviceModel &d) const {
    return std::max(memoryTimeUs(d), computeTimeUs(d));
  }
  bool memoryBound(const DeviceModel &d) const {
    return memoryTimeUs(d) >= computeTimeUs(d);
  }
};

/// Reports on a gpu.launch, or on a gpu.func kernel (sizes from its
/// known_block_size / known_grid_size attributes or from the one
/// gpu.launch_func with constant sizes that launches it).
KernelReport analyzeKernel(Operation *kernel);

} // namespace mlir::memopt

#endif // MEMOPT_ANALYSIS_KERNELREPORT_H

//===- AccessPattern.h - per-lane address model of GPU accesses -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Read-only model of the addresses the 32 lanes of a warp touch with one
// memory access in a GPU kernel (a gpu.launch body or a gpu.func), in the
// spirit of Triton's AxisInfo but evaluated lane by lane: every index is
// split into a lane-dependent part, computed exactly for the lanes of the
// first warp of a block, and a uniform part (block ids, loop induction
// variables, kernel arguments) kept as an affine form over symbols with a
// known divisibility. From it follow:
//
//  * sector efficiency of a global access: useful bytes over the bytes of
//    the 32-byte sectors the warp request touches;
//  * bank-conflict ways of a shared-memory access: 32 banks of 4 bytes,
//    4-byte accesses in one phase of 32 lanes, 8-byte accesses in two
//    phases of 16 lanes, 16-byte accesses in four phases of 8 lanes; lanes
//    reading the same word are a broadcast, not a conflict;
//  * contiguity and divisibility of the access (for vectorization).
//
// Assumptions, stated in every report: the first warp of a block is
// representative; masks and clamps (select, min) take their in-bounds
// value; buffers start 256-byte aligned (cudaMalloc, shared memory).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_ANALYSIS_ACCESSPATTERN_H
#define MEMOPT_ANALYSIS_ACCESSPATTERN_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::memopt {

/// Threads per warp and shared-memory banks.
inline constexpr int64_t kLanes = 32;

/// Byte addresses of one warp-wide memory access.
struct WarpAccess {
  Operation *op = nullptr;
  /// The memref accessed (as written at the access).
  Value memref;
  bool isWrite = false;
  bool isShared = false;
  /// Bytes each lane accesses (element size times vector length).
  int64_t bytesPerLane = 0;
  /// Lanes of the first warp that take part (fewer than 32 when the block
  /// is smaller than a warp).
  int64_t activeLanes = kLanes;
  /// Byte offset of each lane from a uniform base (the buffer start plus
  /// the uniform part of the index).
  std::array<int64_t, kLanes> laneOffset{};
  /// The uniform base is a multiple of this many bytes (a power of two, at
  /// most 256).
  int64_t baseDivisibility = 256;
};

/// The memref, indices and accessed type of a memref.load/store,
/// vector.load/store or memref.atomic_rmw.
struct AccessParts {
  Value memref;
  ValueRange indices;
  Type accessType;
  bool isWrite = false;
};
std::optional<AccessParts> getAccessParts(Operation *op);

/// Models `op` (memref.load/store, vector.load/store, memref.atomic_rmw).
/// Fails with a reason when the lane addresses cannot be determined.
/// `warp` picks the warp of the block (0: lanes are threads 0..31).
FailureOr<WarpAccess> analyzeWarpAccess(Operation *op, std::string &why,
                                        int64_t warp = 0);

/// Warps in a block of the kernel enclosing `op` (1 when unknown).
int64_t getWarpsPerBlock(Operation *op);

/// Whether `op` is an access analyzeWarpAccess understands.
bool isModelledAccess(Operation *op);

/// Sector use of a global access.
struct SectorUse {
  int64_t usefulBytes = 0;
  int64_t sectors = 0;
  double efficiency() const {
    return sectors ? double(usefulBytes) / double(sectors * 32) : 1.0;
  }
};
/// Worst case over the base offsets the divisibility allows.
SectorUse getSectorUse(const WarpAccess &a);

/// Predicted sector use of reading `type` (identity layout, static shape)
/// through `map` in a kernel whose 32 consecutive lanes take consecutive
/// values of loop `laneLoop` (the other loops uniform), one element per
/// lane: the prediction at linalg level that kernel formation consults
/// before it fuses an op into a kernel whose thread mapping is fixed.
/// Returns std::nullopt when the map or the type cannot be modelled.
std::optional<SectorUse> predictSectorUse(AffineMap map, MemRefType type,
                                          unsigned laneLoop,
                                          ArrayRef<int64_t> loopRanges);

/// Bank conflicts of a shared-memory access.
struct BankUse {
  /// Largest number of distinct 4-byte words one bank serves in a phase.
  int64_t ways = 1;
  /// Shared-memory wavefronts the request takes (sum over phases).
  int64_t wavefronts = 1;
  /// Phases of the request (the conflict-free number of wavefronts).
  int64_t phases = 1;
};
BankUse getBankUse(const WarpAccess &a);

/// Bank use of a shared-memory access summed over the warps of a block of
/// `warps` warps (their thread ids differ: a 32x8 block's warps read
/// different tile columns); `ways` is the worst warp's. `first` is the
/// access as analyzeWarpAccess modelled it for warp 0. When the model does
/// not know the block's shape (a gpu.func without known_block_size), the
/// first warp stands for all. Fails like analyzeWarpAccess.
FailureOr<BankUse> getBlockBankUse(const WarpAccess &first, int64_t warps,
                                   std::string &why);

/// Contiguity: lanes access consecutive `bytesPerLane` chunks in lane order
/// (lane l at offset l * bytesPerLane from lane 0).
bool isLaneContiguous(const WarpAccess &a);

/// Largest power of two (up to 256) dividing the byte address of every
/// lane of the access.
int64_t getAddressDivisibility(const WarpAccess &a);

} // namespace mlir::memopt

#endif // MEMOPT_ANALYSIS_ACCESSPATTERN_H

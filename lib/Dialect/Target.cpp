//===- Target.cpp - the table of known chips ----------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file holds the one table of chip facts memopt knows (the CUDA
// programming guide's compute-capability tables) and the lookup of a
// module's #memopt.target.
//
//===----------------------------------------------------------------------===//

#include "memopt/Dialect/MemoptDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct ChipFacts {
  StringRef chip;
  int64_t multiprocessors, registers, sharedPerMultiprocessor,
      maxSharedPerBlock, l2Bytes, portableCluster, maxCluster;
};
} // namespace

// Shared memory per multiprocessor and per block with opt-in, L2 and the
// multiprocessors of the parts memopt was measured on or is likely to
// meet (A100 SXM, RTX 30/40 class, H100/H200 SXM, B200). Clusters need
// sm_90; 16 blocks is the non-portable limit there.
static constexpr ChipFacts kChips[] = {
    {"sm_80", 108, 65536, 164 * 1024, 163 * 1024, 40 << 20, 1, 1},
    {"sm_86", 84, 65536, 100 * 1024, 99 * 1024, 6 << 20, 1, 1},
    {"sm_89", 128, 65536, 100 * 1024, 99 * 1024, 72 << 20, 1, 1},
    {"sm_90", 132, 65536, 228 * 1024, 227 * 1024, 50 << 20, 8, 16},
    {"sm_90a", 132, 65536, 228 * 1024, 227 * 1024, 50 << 20, 8, 16},
    {"sm_100", 148, 65536, 228 * 1024, 227 * 1024, 126 << 20, 8, 16},
};

TargetAttr mlir::memopt::getKnownTarget(MLIRContext *ctx, StringRef chip) {
  for (const ChipFacts &f : kChips)
    if (f.chip == chip)
      return TargetAttr::get(ctx, f.chip, f.multiprocessors, /*warp_size=*/32,
                             /*max_threads_per_block=*/1024, f.registers,
                             f.sharedPerMultiprocessor,
                             /*shared_memory_per_block=*/48 * 1024,
                             f.maxSharedPerBlock, f.l2Bytes, f.portableCluster,
                             f.maxCluster, /*vector_bytes=*/16,
                             /*cache_line_bytes=*/128);
  return {};
}

TargetAttr mlir::memopt::getTarget(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto t = p->getAttrOfType<TargetAttr>(kTargetAttrName))
      return t;
  return getKnownTarget(op->getContext(), "sm_90");
}

LogicalResult TargetAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef chip,
    int64_t multiprocessors, int64_t warpSize, int64_t maxThreadsPerBlock,
    int64_t registers, int64_t sharedPerMultiprocessor, int64_t sharedPerBlock,
    int64_t maxSharedPerBlock, int64_t l2Bytes, int64_t portableCluster,
    int64_t maxCluster, int64_t vectorBytes, int64_t cacheLineBytes) {
  if (multiprocessors < 1 || warpSize < 1 || maxThreadsPerBlock < warpSize ||
      registers < 1 || l2Bytes < 0 || portableCluster < 1 ||
      maxCluster < portableCluster || vectorBytes < 1 ||
      cacheLineBytes < vectorBytes)
    return emitError() << "#memopt.target of " << chip
                       << ": every count must be positive, max_cluster_size "
                          "at least portable_cluster_size, "
                          "max_threads_per_block at least warp_size and "
                          "cache_line_bytes at least vector_bytes";
  if (sharedPerBlock > maxSharedPerBlock ||
      maxSharedPerBlock > sharedPerMultiprocessor)
    return emitError() << "#memopt.target of " << chip
                       << ": shared memory limits must satisfy per block <= "
                          "max per block <= per multiprocessor";
  // Block reductions exchange one partial per warp through one warp's
  // shuffles: at most warp_size warps, and XOR shuffles need a power of two.
  if (maxThreadsPerBlock % warpSize != 0 ||
      maxThreadsPerBlock > warpSize * warpSize ||
      (warpSize & (warpSize - 1)) != 0 ||
      (vectorBytes & (vectorBytes - 1)) != 0)
    return emitError() << "#memopt.target of " << chip
                       << ": warp_size and vector_bytes must be powers of "
                          "two and max_threads_per_block a multiple of "
                          "warp_size up to warp_size squared";
  return success();
}

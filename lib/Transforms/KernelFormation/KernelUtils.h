//===- KernelUtils.h - shared helpers of kernel formation ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal helpers used by the kernel formation strategies: launch creation,
// index expansion and cloning of linalg.generic bodies onto scalars.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_KERNELUTILS_H
#define MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_KERNELUTILS_H

#include "memopt/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::memopt::kf {

/// Creates a 1-D (or 3-D) gpu.launch with constant sizes before the current
/// insertion point and leaves the builder at the start of its body, before
/// the gpu.terminator it adds. A `clusterX` above 1 groups that many
/// consecutive blocks along x into a thread-block cluster.
gpu::LaunchOp createLaunch(OpBuilder &b, Location loc,
                           ArrayRef<int64_t> grid, ArrayRef<int64_t> block,
                           TypeRange workgroupAttributions = {},
                           int64_t clusterX = 1);

/// Index values for the results of `map` applied to `ivs`.
SmallVector<Value> expandIndices(OpBuilder &b, Location loc, AffineMap map,
                                 ValueRange ivs);

/// Delinearizes `linear` over `sizes` (last size fastest).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> sizes);

/// Clones the body of `op` with its block arguments bound to `args` (inputs
/// then outputs) and `linalg.index` bound to `ivs`; returns the yielded
/// values.
SmallVector<Value> cloneBody(OpBuilder &b, linalg::GenericOp op,
                             ValueRange args, ValueRange ivs);

/// The buffer a memref value views (through expand/collapse/cast), or the
/// value itself.
Value getRootBuffer(Value v);

/// Whether every memref `op` touches is a whole buffer (a function argument
/// or an allocation, through the views getRootBuffer sees through) and its
/// body reads no memref: then buffers with different roots do not alias.
bool touchesWholeBuffersOnly(linalg::GenericOp op);

/// Size in bytes of one element of `t` (i1 counts as one byte).
int64_t getElementBytes(Type t);

} // namespace mlir::memopt::kf

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_KERNELUTILS_H

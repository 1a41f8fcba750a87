//===- StrategySelection.cpp - a strategy for each kernel group -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements selectKernelStrategy: the families are tried in
// priority order (tiled transpose, row, elementwise, column reduction) and
// the first that applies writes its attribute; a group no family takes gets
// #memopt.naive with the reason, and a remark on each of its ops.
//
//===----------------------------------------------------------------------===//

#include "Grouping.h"
#include "KernelUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// #memopt.naive for `ops`, with `remark` on each op.
static Attribute naive(ArrayRef<linalg::GenericOp> ops,
                       const KernelTargetInfo &target, const Twine &reason,
                       const Twine &remark) {
  for (linalg::GenericOp op : ops)
    op.emitRemark() << remark;
  linalg::GenericOp first = ops.front();
  return NaiveStrategyAttr::get(first.getContext(), target.blockSize,
                                reason.str());
}

FailureOr<Attribute>
mlir::memopt::selectKernelStrategy(KernelGroupOp groupOp,
                                   const KernelTargetInfo &target) {
  SmallVector<linalg::GenericOp> ops = getGroupOps(groupOp);
  if (ops.empty())
    return groupOp.emitError("an empty kernel group"), failure();
  std::string why;
  // A tiled transpose, with the ops before it as its prologue and the ops
  // after it as its epilogue.
  std::optional<unsigned> transpose;
  for (auto [k, op] : llvm::enumerate(ops)) {
    std::string ignored;
    FailureOr<GroupOp> g = classify(op, ignored);
    if (succeeded(g) && isTransposing(op, *g)) {
      transpose = k;
      break;
    }
  }
  if (transpose) {
    FailureOr<TileFusion> fusion = buildTileFusion(ops, *transpose, why);
    if (succeeded(fusion))
      return Attribute(
          selectTileTransposeStrategy(*fusion, *transpose, target));
    if (ops.size() > 1)
      return naive(ops, target, why,
                   "fused kernel not formed: " + why +
                       "; using a naive kernel");
  }
  // A group sharing one row space: row kernels for reductions, elementwise
  // kernels otherwise.
  FailureOr<Group> group = failure();
  if (!transpose)
    group = buildGroup(ops, why);
  if (succeeded(group)) {
    FailureOr<Attribute> s =
        group->hasReduce() || group->hasColumnReduce()
            ? selectRowStrategy(*group, target, why)
                           : FailureOr<Attribute>(selectElementwiseStrategy(
                                 *group, target, why));
    if (succeeded(s))
      return s;
    return naive(ops, target, why,
                 "fused kernel not formed: " + why + "; using a naive kernel");
  }
  // A reduction with parallel loops inside it, with the fill that seeds it
  // and the elementwise epilogue over its outputs.
  ColumnGroupOps c = splitColumnGroup(ops);
  std::string whyEpilogue;
  if (!c.ops.empty() && isColumnEpilogue(c.ops, c.epilogue, whyEpilogue)) {
    std::string whyTranspose, whyColumn;
    (void)matchTranspose(c.ops[0], whyTranspose);
    FailureOr<ColumnReduceStrategyAttr> s =
        selectColumnReduceStrategy(c, target, whyColumn);
    if (succeeded(s))
      return Attribute(*s);
    std::string reason =
        "no fused strategy applies (transpose: " + whyTranspose +
        "; column reduction: " + whyColumn + ")";
    return naive(ops, target, reason, reason + "; using a naive kernel");
  }
  return naive(ops, target, why,
               "fused kernel not formed: " + why + "; using a naive kernel");
}

/// Ops that may sit between a group and the group that runs in its last
/// block: the merge moves them before the first group's kernel.
bool kf::isMovableBeforeKernel(Operation *op) {
  return isa<memref::AllocOp, memref::AllocaOp>(op) || isMemoryEffectFree(op);
}

Operation *kf::getPreviousPastMovable(Operation *op) {
  Operation *prev = op->getPrevNode();
  while (prev && !isa<KernelGroupOp, gpu::LaunchOp>(prev) &&
         isMovableBeforeKernel(prev))
    prev = prev->getPrevNode();
  return prev;
}

/// A one-row reduction group right after a row group that writes what it
/// reads (a split reduction's second stage, a whole-tensor statistic)
/// runs in the last block of that group's kernel to arrive, with its
/// threads: `after_last_block`.
static void selectTails(ArrayRef<KernelGroupOp> selected,
                        const KernelTargetInfo &target) {
  for (KernelGroupOp g2 : selected) {
    auto s2 = dyn_cast<RowStrategyAttr>(g2.getStrategyAttr());
    if (!s2 || s2.getInterleaved() || s2.getShifted() ||
        s2.getRowsPerBlock() != 1 || s2.getColumnPartials() != 0 ||
        s2.getSharedChunks() != 0 || s2.getPersistentClusters() != 0)
      continue;
    auto g1 = dyn_cast_or_null<KernelGroupOp>(getPreviousPastMovable(g2));
    auto s1 = g1 ? dyn_cast<RowStrategyAttr>(g1.getStrategyAttr())
                 : RowStrategyAttr();
    if (!s1 || s1.getAfterLastBlock() || s1.getCluster() != 1 ||
        s1.getPersistentClusters() != 0 || s1.getColumnPartials() != 0 ||
        s1.getInterleaved() || s1.getRowsPerBlock() != 1 ||
        s1.getThreads() < (int64_t)target.warpSize)
      continue;
    std::string why;
    FailureOr<Group> first = buildGroup(getGroupOps(g1), why);
    FailureOr<Group> second = buildGroup(getGroupOps(g2), why);
    if (failed(first) || failed(second) || second->numRows() != 1 ||
        second->hasColumnReduce())
      continue;
    if (llvm::none_of(second->readExternal, [&](Value root) {
          return first->written.contains(root);
        }))
      continue;
    int64_t threads = s1.getThreads();
    int64_t chunks = llvm::divideCeil(
        getChunksPerRow(second->inner, s2.getVector(), false), threads);
    if (chunks > (int64_t)target.rowChunksPerThread)
      continue;
    g2.setStrategyAttr(RowStrategyAttr::get(
        g2.getContext(), s2.getVector(), /*shifted=*/false, threads, chunks,
        /*cluster=*/1, /*shared_chunks=*/0, /*blocks_per_multiprocessor=*/1,
        /*persistent_clusters=*/0, s2.getOnlineSoftmax(), /*rows_per_block=*/1,
        /*interleaved=*/false, /*column_partials=*/0,
        /*shared_accumulators=*/false, /*prefetch_rows=*/0,
        /*block_order=*/DenseI64ArrayAttr(), /*after_last_block=*/true));
    second->ops.front().op.emitRemark()
        << "one row of " << second->inner
        << " elements reduced in the last block of the previous kernel to "
           "finish (" << threads << " threads): no launch of its own";
  }
}

LogicalResult
mlir::memopt::selectKernelStrategies(FunctionOpInterface func,
                                     const KernelTargetInfo &target) {
  SmallVector<KernelGroupOp> groups, selected;
  func->walk([&](KernelGroupOp g) { groups.push_back(g); });
  for (KernelGroupOp g : groups) {
    // A pinned strategy stays; memopt-emit-kernels checks it.
    if (g.getStrategyAttr())
      continue;
    FailureOr<Attribute> s = selectKernelStrategy(g, target);
    if (failed(s))
      return failure();
    g.setStrategyAttr(*s);
    selected.push_back(g);
  }
  if (target.lastBlockTails)
    selectTails(selected, target);
  return success();
}

//===- KernelEmission.cpp - build what a kernel group's strategy says -*- C++
//-*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements emitKernelGroup: the group's ops are checked against
// its strategy (an attribute that cannot be honoured is an error at the
// group), put back where the group stands and replaced by the kernel the
// strategy's family builds; buffers used only inside the group are never
// allocated.
//
//===----------------------------------------------------------------------===//

#include "Grouping.h"
#include "KernelUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

InFlightDiagnostic kf::emitCannotHonour(Operation *anchor, Attribute s) {
  InFlightDiagnostic d = anchor->emitError("cannot honour ");
  d << s << ": ";
  return d;
}

bool kf::isVectorAllowed(int64_t vec, int64_t elementBytes,
                         const KernelTargetInfo &target) {
  return vec >= 1 && llvm::isPowerOf2_64(vec) &&
         vec * elementBytes <= (int64_t)target.vectorBytes;
}

bool kf::isWholeWarps(int64_t threads, const KernelTargetInfo &target) {
  return threads >= (int64_t)target.warpSize &&
         threads <= (int64_t)target.maxThreadsPerBlock &&
         threads % target.warpSize == 0;
}

/// Erases the fused `ops` (in program order) and the allocations of
/// `privates` with their remaining users.
static void eraseFusedOps(RewriterBase &rewriter,
                          ArrayRef<linalg::GenericOp> ops,
                          const DenseSet<Value> &privates) {
  for (linalg::GenericOp op : llvm::reverse(ops))
    rewriter.eraseOp(op);
  for (Value root : privates) {
    Operation *alloc = root.getDefiningOp();
    for (Operation *user : llvm::make_early_inc_range(root.getUsers()))
      rewriter.eraseOp(user);
    rewriter.eraseOp(alloc);
  }
}

/// Puts the ops of `groupOp` back before it and erases it.
static void dissolve(RewriterBase &rewriter, KernelGroupOp groupOp) {
  rewriter.inlineBlockBefore(&groupOp.getBody().front(), groupOp);
  rewriter.eraseOp(groupOp);
}

/// The row-space group of `ops`, or an error at `anchor`.
static FailureOr<Group> getGroupOrError(ArrayRef<linalg::GenericOp> ops,
                                        Attribute s, Operation *anchor) {
  std::string why;
  FailureOr<Group> group = buildGroup(ops, why);
  if (failed(group))
    return emitCannotHonour(anchor, s)
               << "the ops do not share a row space: " << why,
           failure();
  return group;
}

FailureOr<unsigned>
mlir::memopt::emitKernelGroup(RewriterBase &rewriter, KernelGroupOp groupOp,
                              const KernelTargetInfo &target) {
  Attribute strategy = groupOp.getStrategyAttr();
  if (!strategy)
    return groupOp.emitError("kernel group without a strategy (run "
                             "memopt-select-kernel-strategy first)"),
           failure();
  SmallVector<linalg::GenericOp> ops = getGroupOps(groupOp);
  if (ops.empty())
    return groupOp.emitError("an empty kernel group"), failure();
  Operation *anchor = groupOp;
  unsigned fused = ops.size() > 1 ? ops.size() : 0;
  auto rowSpaceKernel = [&](auto s, auto check,
                            auto emit) -> FailureOr<unsigned> {
    FailureOr<Group> group = getGroupOrError(ops, s, anchor);
    if (failed(group))
      return failure();
    if (group->hasColumnReduce() && !isa<RowStrategyAttr>(s))
      return emitCannotHonour(anchor, s)
                 << "column reductions in a row group are fused only by "
                    "#memopt.row with column_partials",
             failure();
    if (failed(check(*group, s, target, anchor)))
      return failure();
    dissolve(rewriter, groupOp);
    emit(rewriter, *group, s, target);
    eraseFusedOps(rewriter, ops, getPrivateBuffers(*group));
    return fused;
  };
  return llvm::TypeSwitch<Attribute, FailureOr<unsigned>>(strategy)
      .Case([&](RowStrategyAttr s) {
        return rowSpaceKernel(s, checkRowStrategy, emitRowKernel);
      })
      .Case([&](StreamedRowStrategyAttr s) {
        return rowSpaceKernel(s, checkStreamedRowStrategy,
                              emitStreamedRowKernel);
      })
      .Case([&](ElementwiseStrategyAttr s) {
        return rowSpaceKernel(s, checkElementwiseStrategy,
                              emitElementwiseKernel);
      })
      .Case([&](TileTransposeStrategyAttr s) -> FailureOr<unsigned> {
        std::string why;
        FailureOr<TileFusion> fusion =
            buildTileFusion(ops, s.getTranspose(), why);
        if (failed(fusion))
          return emitCannotHonour(anchor, s) << why, failure();
        if (failed(checkTileTransposeStrategy(*fusion, s, target, anchor)))
          return failure();
        dissolve(rewriter, groupOp);
        Group all = fusion->prologueGroup;
        llvm::append_range(all.ops, fusion->epilogueGroup.ops);
        for (auto [root, value] : fusion->epilogueGroup.written)
          all.written[root] = value;
        DenseSet<Value> privates = getPrivateBuffers(all);
        emitTileTransposeKernel(rewriter, *fusion, s, privates);
        eraseFusedOps(rewriter, ops, privates);
        return fused;
      })
      .Case([&](ColumnReduceStrategyAttr s) -> FailureOr<unsigned> {
        ColumnGroupOps c = splitColumnGroup(ops);
        if (c.ops.empty())
          return emitCannotHonour(anchor, s) << "the group has no reduction",
                 failure();
        if (failed(checkColumnReduceStrategy(c, s, target, anchor)))
          return failure();
        dissolve(rewriter, groupOp);
        DenseSet<Value> privates = emitColumnReduceKernel(
            rewriter, c, s, target);
        eraseFusedOps(rewriter, ops, privates);
        return 0u;
      })
      .Case([&](NaiveStrategyAttr s) -> FailureOr<unsigned> {
        if (failed(checkNaiveStrategy(ops, s, target, anchor)))
          return failure();
        dissolve(rewriter, groupOp);
        KernelTargetInfo naive = target;
        naive.blockSize = s.getThreads();
        for (linalg::GenericOp op : ops)
          if (failed(formNaiveKernel(rewriter, op, naive)))
            return op.emitOpError("cannot form a kernel"), failure();
        return 0u;
      })
      .Default([&](Attribute) -> FailureOr<unsigned> {
        return anchor->emitError("unknown kernel strategy ") << strategy,
               failure();
      });
}

/// Runs `tail` (one block of the threads of `head`) in the last block of
/// `head` to arrive: memopt.last_arrival over head's grid, then tail's body
/// under it with tail's block ids 0. The ops between the two launches
/// (allocations, views, constants: getPreviousPastMovable) move before
/// `head`.
static LogicalResult mergeTailLaunch(RewriterBase &rewriter,
                                     gpu::LaunchOp head, gpu::LaunchOp tail,
                                     Operation *anchor, Attribute s) {
  auto constant = [](Value v) { return getConstantIntValue(v); };
  gpu::KernelDim3 hg = head.getGridSizeOperandValues(),
                  hb = head.getBlockSizeOperandValues(),
                  tg = tail.getGridSizeOperandValues(),
                  tb = tail.getBlockSizeOperandValues();
  auto gx = constant(hg.x), gy = constant(hg.y), gz = constant(hg.z);
  if (head.hasClusterSize() || tail.hasClusterSize() || head.getAsyncToken() ||
      tail.getAsyncToken() || !head.getPrivateAttributions().empty() ||
      !tail.getPrivateAttributions().empty() || !gx || !gy || !gz ||
      constant(tg.x) != 1 || constant(tg.y) != 1 || constant(tg.z) != 1 ||
      !constant(hb.x) || constant(hb.x) != constant(tb.x) ||
      constant(hb.y) != 1 || constant(hb.z) != 1 || constant(tb.y) != 1 ||
      constant(tb.z) != 1)
    return emitCannotHonour(anchor, s)
               << "the previous kernel must be one launch without clusters of "
                  "1-D blocks of this group's threads",
           failure();
  while (head->getNextNode() != tail)
    head->getNextNode()->moveBefore(head);
  Location loc = tail.getLoc();
  Block &body = head.getBody().front();
  rewriter.setInsertionPoint(body.getTerminator());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value last = LastArrivalOp::create(
      rewriter, loc, rewriter.getI1Type(), zero,
      rewriter.getI64IntegerAttr(*gx * *gy * *gz), rewriter.getI64IntegerAttr(1));
  // The tail's block ids 0 and grid 1; its threads and block size the
  // head's.
  IRMapping map;
  auto mapDim3 = [&](gpu::KernelDim3 from, gpu::KernelDim3 to) {
    map.map(from.x, to.x);
    map.map(from.y, to.y);
    map.map(from.z, to.z);
  };
  mapDim3(tail.getBlockIds(), {zero, zero, zero});
  mapDim3(tail.getGridSize(), {one, one, one});
  mapDim3(tail.getThreadIds(), head.getThreadIds());
  mapDim3(tail.getBlockSize(), head.getBlockSize());
  for (BlockArgument wg : tail.getWorkgroupAttributions())
    map.map(wg, head.addWorkgroupAttribution(wg.getType(), wg.getLoc()));
  auto ifOp = scf::IfOp::create(rewriter, loc, last, false);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    for (Operation &op : tail.getBody().front().without_terminator()) {
      Operation *clone = rewriter.clone(op, map);
      // Block ids and the grid of the tail's one block.
      SmallVector<Operation *> ids;
      clone->walk([&](Operation *inner) {
        if (isa<gpu::BlockIdOp, gpu::GridDimOp>(inner))
          ids.push_back(inner);
      });
      for (Operation *id : ids) {
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPoint(id);
        rewriter.replaceOp(id, arith::ConstantIndexOp::create(
                                   rewriter, loc,
                                   isa<gpu::BlockIdOp>(id) ? 0 : 1)
                                   .getResult());
      }
    }
  }
  // Every thread meets here whether or not its block ran the tail.
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.eraseOp(tail);
  return success();
}

LogicalResult mlir::memopt::emitKernelGroups(RewriterBase &rewriter,
                                             FunctionOpInterface func,
                                             const KernelTargetInfo &target,
                                             unsigned &numKernels,
                                             unsigned &numFusedOps) {
  SmallVector<KernelGroupOp> groups;
  func->walk([&](KernelGroupOp g) { groups.push_back(g); });
  for (KernelGroupOp g : groups) {
    auto row = dyn_cast_or_null<RowStrategyAttr>(g.getStrategyAttr());
    bool tail = row && row.getAfterLastBlock();
    Operation *next = g->getNextNode();
    Location loc = g.getLoc();
    FailureOr<unsigned> fused = emitKernelGroup(rewriter, g, target);
    if (failed(fused))
      return failure();
    if (tail) {
      // This group's launch (a row kernel of one block: the op right
      // before `next` past its own views) and the previous group's.
      auto launch =
          dyn_cast_or_null<gpu::LaunchOp>(kf::getPreviousPastMovable(next));
      auto head = launch ? dyn_cast_or_null<gpu::LaunchOp>(
                               kf::getPreviousPastMovable(launch))
                         : gpu::LaunchOp();
      if (!launch || !head)
        return emitError(loc, "cannot honour ")
                   << row
                   << ": after_last_block needs the previous group's kernel "
                      "right before it",
               failure();
      if (failed(mergeTailLaunch(rewriter, head, launch, launch, row)))
        return failure();
      numFusedOps += *fused;
      continue;
    }
    ++numKernels;
    numFusedOps += *fused;
  }
  // Constant tensors (lookup tables, small weights; bufferized into
  // constant memref.globals) are read where the kernels read them: the
  // get_global moves into each launch, so that outlining copies the global
  // into the kernel module and the PTX holds its data (the launch manifest
  // describes no host data).
  auto isConstantGlobal = [](Operation *op) {
    auto get = dyn_cast<memref::GetGlobalOp>(op);
    if (!get)
      return false;
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        op, get.getNameAttr());
    return global && global.getConstant();
  };
  // Permuted views (memopt-interchange-normalizations) move in too: the
  // kernel receives the buffer's pointer, as the manifest describes it, and
  // builds the strided view itself.
  auto isSunk = [&](Operation *op) {
    return isConstantGlobal(op) || isa<memref::TransposeOp>(op);
  };
  SmallVector<gpu::LaunchOp> launches;
  func->walk([&](gpu::LaunchOp l) { launches.push_back(l); });
  for (gpu::LaunchOp l : launches) {
    // (Upstream's sinking takes an op only when its operands are already
    // used in the launch; a view's buffer is not.)
    DenseMap<Operation *, Operation *> cloned;
    l.getBody().walk([&](Operation *user) {
      for (OpOperand &use : user->getOpOperands()) {
        auto view = use.get().getDefiningOp<memref::TransposeOp>();
        if (!view || l->isAncestor(view))
          continue;
        Operation *&copy = cloned[view];
        if (!copy) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(&l.getBody().front());
          copy = rewriter.clone(*view);
        }
        use.set(copy->getResult(0));
      }
    });
    if (failed(sinkOperationsIntoLaunchOp(l, isSunk)))
      return l.emitOpError("cannot move constant globals and views into the "
                           "kernel"),
             failure();
  }
  SmallVector<Operation *> dead;
  func->walk([&](Operation *op) {
    if (op->use_empty() && isSunk(op) && !op->getParentOfType<gpu::LaunchOp>())
      dead.push_back(op);
  });
  for (Operation *op : dead)
    rewriter.eraseOp(op);
  return success();
}

//===- LaunchToLoops.cpp - run kernels as host loops --------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-launch-to-loops: barrier-free gpu.launch ops
// become sequential scf.for nests so that transformed programs run on the CPU
// in differential tests.
//
//===----------------------------------------------------------------------===//

#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SetVector.h"

#include <functional>
#include <vector>

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTLAUNCHTOLOOPSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Marks the loops an scf.if around synchronization became.
static constexpr llvm::StringLiteral kMayRunNoIteration =
    "memopt.may_run_no_iteration";

namespace {
/// Host values of a launch's (one-dimensional) cluster position: the
/// block's rank, the cluster's x index, the cluster size and the number of
/// clusters along x. A launch without clusters is clusters of one block.
struct ClusterPosition {
  Value rank, clusterX, size, countX;
};
} // namespace

/// The host value of a gpu.thread_id/block_id/block_dim/grid_dim op or of a
/// cluster id/size op (ivs are ordered z, y, x), or null for any other op.
static Value getIdValue(Operation *op, ArrayRef<Value> threadIvs,
                        ArrayRef<Value> blockIvs, gpu::KernelDim3 blockSizes,
                        gpu::KernelDim3 gridSizes,
                        const ClusterPosition &cluster, Value zero,
                        Value one) {
  auto pick = [](gpu::Dimension d, Value x, Value y, Value z) {
    return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
  };
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
    return pick(t.getDimension(), threadIvs[2], threadIvs[1], threadIvs[0]);
  if (auto b = dyn_cast<gpu::BlockIdOp>(op))
    return pick(b.getDimension(), blockIvs[2], blockIvs[1], blockIvs[0]);
  if (auto bd = dyn_cast<gpu::BlockDimOp>(op))
    return pick(bd.getDimension(), blockSizes.x, blockSizes.y, blockSizes.z);
  if (auto gd = dyn_cast<gpu::GridDimOp>(op))
    return pick(gd.getDimension(), gridSizes.x, gridSizes.y, gridSizes.z);
  if (auto c = dyn_cast<gpu::ClusterBlockIdOp>(op))
    return pick(c.getDimension(), cluster.rank, zero, zero);
  if (auto c = dyn_cast<gpu::ClusterDimBlocksOp>(op))
    return pick(c.getDimension(), cluster.size, one, one);
  if (auto c = dyn_cast<gpu::ClusterIdOp>(op))
    return pick(c.getDimension(), cluster.clusterX, blockIvs[1], blockIvs[0]);
  if (auto c = dyn_cast<gpu::ClusterDimOp>(op))
    return pick(c.getDimension(), cluster.countX, gridSizes.y, gridSizes.z);
  return Value();
}

/// Asynchronous copies become synchronous ones (threads run one after
/// another, so a copy is complete by the time its wait would return) and
/// each view of dynamic shared memory becomes a workgroup buffer of its own
/// (memopt's rings never pass data from one view to another).
static LogicalResult lowerAsyncCopies(RewriterBase &rewriter,
                                      gpu::LaunchOp launch) {
  SmallVector<Operation *> asyncOps;
  SmallVector<gpu::DynamicSharedMemoryOp> dynOps;
  launch.getBody().walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
            nvgpu::DeviceAsyncWaitOp>(op))
      asyncOps.push_back(op);
    if (auto d = dyn_cast<gpu::DynamicSharedMemoryOp>(op))
      dynOps.push_back(d);
  });
  // Tokens may only flow from copies to groups to waits (not through loop
  // arguments): check before changing anything.
  DenseSet<Operation *> asyncSet(asyncOps.begin(), asyncOps.end());
  for (Operation *op : asyncOps)
    for (Operation *user : op->getUsers())
      if (!asyncSet.contains(user))
        return failure();
  for (Operation *op : llvm::reverse(asyncOps)) {
    auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op);
    if (!copy) {
      rewriter.eraseOp(op);
      continue;
    }
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(copy);
    Location loc = copy.getLoc();
    Type elt = cast<MemRefType>(copy.getSrc().getType()).getElementType();
    int64_t n = copy.getDstElements().getZExtValue();
    auto at = [&](ValueRange idx, int64_t e) {
      SmallVector<Value> out(idx.begin(), idx.end());
      // (A 0-d buffer: one element, no index.)
      if (out.empty())
        return out;
      out.back() = arith::AddIOp::create(
          rewriter, loc, out.back(),
          arith::ConstantIndexOp::create(rewriter, loc, e));
      return out;
    };
    for (int64_t e = 0; e < n; ++e) {
      SmallVector<Value> dst = at(copy.getDstIndices(), e);
      if (!copy.getSrcElements()) {
        Value v = memref::LoadOp::create(rewriter, loc, copy.getSrc(),
                                         at(copy.getSrcIndices(), e));
        memref::StoreOp::create(rewriter, loc, v, copy.getDst(), dst);
        continue;
      }
      // Elements past srcElements are zero-filled, not read.
      Value inSrc = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult,
          arith::ConstantIndexOp::create(rewriter, loc, e),
          copy.getSrcElements());
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{elt}, inSrc,
                                    /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{memref::LoadOp::create(
                               rewriter, loc, copy.getSrc(),
                               at(copy.getSrcIndices(), e))});
      rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(
          rewriter, loc,
          ValueRange{arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getZeroAttr(elt))});
      rewriter.setInsertionPointAfter(ifOp);
      memref::StoreOp::create(rewriter, loc, ifOp.getResult(0), copy.getDst(),
                              dst);
    }
    rewriter.eraseOp(op);
  }
  for (gpu::DynamicSharedMemoryOp dyn : dynOps) {
    for (Operation *user : llvm::make_early_inc_range(dyn->getUsers())) {
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view || !view.getSizes().empty())
        return failure();
      BlockArgument buffer =
          launch.addWorkgroupAttribution(view.getType(), view.getLoc());
      rewriter.replaceOp(view, buffer);
    }
    rewriter.eraseOp(dyn);
  }
  return success();
}

/// Ops that order threads: they split the body into phases and must sit
/// where phases are formed (the kernel body or the body of a loop that the
/// host runs around its phases).
static bool isSyncOp(Operation *op) {
  return isa<gpu::BarrierOp, gpu::ShuffleOp, ClusterBarrierOp, ClusterArriveOp,
             ClusterWaitOp, ClusterLoadOp>(op);
}

static bool containsSync(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isSyncOp(inner) ? WalkResult::interrupt()
                               : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
/// The kernel body split at synchronization: phases (ops of one block that
/// every thread of the cluster finishes before the next phase begins) and
/// loops with synchronization inside, which the host runs as loops around
/// the phases of their body (every thread of a cluster takes the same trip
/// count, as their barriers require).
struct PhaseItem {
  int phase = -1;
  scf::ForOp loop;
  std::vector<PhaseItem> body;
};

struct PhasePlan {
  SmallVector<SmallVector<Operation *>> phases;
  DenseMap<Operation *, unsigned> phaseOf;
  /// Phases that begin right after a shuffle: they first read the partner
  /// values the shuffle published (phase index of the shuffle's phase).
  DenseMap<unsigned, unsigned> afterShuffle;
  DenseSet<Operation *> loops;

  /// Splits `block` into items; fails for synchronization nested in other
  /// control flow or in a loop with results.
  LogicalResult build(Block &block, std::vector<PhaseItem> &items) {
    auto newPhase = [&] {
      phases.emplace_back();
      PhaseItem item;
      item.phase = phases.size() - 1;
      items.push_back(std::move(item));
    };
    newPhase();
    for (Operation &op : block.without_terminator()) {
      // A split cluster barrier synchronizes at its wait; its arrival only
      // orders the thread's own earlier accesses, which the host runs
      // first.
      if (isa<gpu::BarrierOp, ClusterBarrierOp, ClusterWaitOp>(op)) {
        newPhase();
        continue;
      }
      if (isa<ClusterArriveOp>(op))
        continue;
      if (auto forOp = dyn_cast<scf::ForOp>(op); forOp && containsSync(forOp)) {
        // The host ends a phase where the loop begins, between iterations
        // and where it ends: exact only where the kernel synchronizes
        // there too, i.e. the body begins and ends with a barrier (and
        // runs at least once, checked as the host runs it).
        Block &loopBody = *forOp.getBody();
        auto isBarrier = [](Operation &o) {
          return isa<gpu::BarrierOp, ClusterBarrierOp, ClusterWaitOp>(o);
        };
        if (forOp.getNumResults() != 0 || loopBody.without_terminator().empty() ||
            !isBarrier(loopBody.front()) ||
            !isBarrier(*loopBody.getTerminator()->getPrevNode()))
          return failure();
        PhaseItem item;
        item.loop = forOp;
        if (failed(build(*forOp.getBody(), item.body)))
          return failure();
        items.push_back(std::move(item));
        loops.insert(forOp);
        newPhase();
        continue;
      }
      if (!isa<ClusterLoadOp, gpu::ShuffleOp>(op) && containsSync(&op))
        return failure();
      phaseOf[&op] = phases.size() - 1;
      phases.back().push_back(&op);
      if (isa<gpu::ShuffleOp>(op)) {
        newPhase();
        afterShuffle[phases.size() - 1] = phases.size() - 2;
      }
    }
    return success();
  }

  /// The phase of the phase-level op containing `op`, or -1 when that is a
  /// loop run around phases (its operands are read between phases).
  int getPhase(Operation *op) const {
    for (; op; op = op->getParentOp()) {
      if (auto it = phaseOf.find(op); it != phaseOf.end())
        return it->second;
      if (loops.contains(op))
        return -1;
    }
    return -1;
  }
};
} // namespace

/// The host runs every block's phase before the next phase, which would
/// hide a distributed shared memory read that the kernel does not order
/// after the other blocks' writes: fails for reads of a buffer written since
/// the last cluster barrier (or wait), and for reads after an arrival. A
/// loop is checked twice, the second time as the iteration after the first.
namespace {
/// Elements of a workgroup buffer: per index a constant or (nullopt) any;
/// no indices at all: the whole buffer.
struct BufferPlace {
  Value memref;
  SmallVector<std::optional<int64_t>> indices;
  bool overlaps(const BufferPlace &o) const {
    if (memref != o.memref)
      return false;
    if (indices.size() != o.indices.size())
      return true;
    for (auto [a, b] : llvm::zip(indices, o.indices))
      if (a && b && *a != *b)
        return false;
    return true;
  }
};

static BufferPlace getPlace(Value memref, ValueRange indices) {
  BufferPlace place{memref, {}};
  for (Value i : indices)
    place.indices.push_back(getConstantIntValue(i));
  return place;
}

/// What a cluster has done to its workgroup buffers since the last cluster
/// barrier (or wait).
struct ClusterState {
  bool arrived = false;
  DenseSet<Value> written;
  SmallVector<BufferPlace> readRemotely;
  void merge(const ClusterState &o) {
    arrived |= o.arrived;
    written.insert(o.written.begin(), o.written.end());
    llvm::append_range(readRemotely, o.readRemotely);
  }
};
} // namespace

static LogicalResult checkClusterReads(Block &block, ClusterState &state,
                                       const PhasePlan &plan) {
  for (Operation &op : block.without_terminator()) {
    if (isa<ClusterBarrierOp, ClusterWaitOp>(op)) {
      state = ClusterState();
      continue;
    }
    if (isa<ClusterArriveOp>(op)) {
      state.arrived = true;
      continue;
    }
    if (auto load = dyn_cast<ClusterLoadOp>(op)) {
      if (state.arrived || state.written.contains(load.getMemref()))
        return failure();
      state.readRemotely.push_back(
          getPlace(load.getMemref(), load.getIndices()));
      continue;
    }
    if (plan.loops.contains(&op)) {
      // After the loop: its state before (no iteration) or after one or
      // two iterations.
      Block &loopBody = *cast<scf::ForOp>(op).getBody();
      ClusterState after = state;
      for (int iteration = 0; iteration < 2; ++iteration) {
        if (failed(checkClusterReads(loopBody, after, plan)))
          return failure();
        state.merge(after);
      }
      continue;
    }
    // A write to memory another block may still be reading is unordered
    // too (the host runs every read of the phase first).
    WalkResult result = op.walk([&](Operation *inner) {
      std::optional<BufferPlace> dst;
      if (auto st = dyn_cast<memref::StoreOp>(inner))
        dst = getPlace(st.getMemref(), st.getIndices());
      else if (auto vs = dyn_cast<vector::StoreOp>(inner))
        dst = BufferPlace{vs.getBase(), {}};
      if (!dst)
        return WalkResult::advance();
      if (llvm::any_of(state.readRemotely, [&](const BufferPlace &read) {
            return read.overlaps(*dst);
          }))
        return WalkResult::interrupt();
      state.written.insert(dst->memref);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

/// Loops with synchronization inside that carry values (a row kernel's
/// column accumulators) carry them through workgroup memory instead, one
/// slot per thread, stored where the loop begins and where each iteration
/// ends and loaded after the first barrier of the body and after the loop:
/// the host runs such loops around their phases, where values cannot flow.
static LogicalResult demoteLoopValues(RewriterBase &rewriter,
                                      gpu::LaunchOp launch) {
  SmallVector<scf::ForOp> loops;
  launch.getBody().walk([&](scf::ForOp forOp) {
    if (forOp.getNumResults() > 0 && containsSync(forOp))
      loops.push_back(forOp);
  });
  if (loops.empty())
    return success();
  gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
  std::optional<int64_t> bx = getConstantIntValue(sizes.x),
                         by = getConstantIntValue(sizes.y),
                         bz = getConstantIntValue(sizes.z);
  if (!bx || !by || !bz)
    return failure();
  Location loc = launch.getLoc();
  gpu::KernelDim3 tids = launch.getThreadIds();
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      rewriter.getContext(), gpu::AddressSpace::Workgroup);
  for (scf::ForOp forOp : loops) {
    // The body begins and ends with two distinct barriers (the loads go
    // after the first, the stores before the last).
    Block &body = *forOp.getBody();
    Operation *lastOp = body.getTerminator()->getPrevNode();
    if (body.without_terminator().empty() ||
        !isa<gpu::BarrierOp>(body.front()) || !lastOp ||
        lastOp == &body.front() || !isa<gpu::BarrierOp>(lastOp))
      return failure();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forOp);
    Value tid = arith::AddIOp::create(
        rewriter, loc, tids.x,
        arith::MulIOp::create(
            rewriter, loc,
            arith::ConstantIndexOp::create(rewriter, loc, *bx),
            arith::AddIOp::create(
                rewriter, loc, tids.y,
                arith::MulIOp::create(
                    rewriter, loc,
                    arith::ConstantIndexOp::create(rewriter, loc, *by),
                    tids.z))));
    SmallVector<Value> slots;
    for (Value init : forOp.getInitArgs()) {
      Type t = init.getType();
      if (!t.isIntOrIndexOrFloat())
        return failure();
      slots.push_back(launch.addWorkgroupAttribution(
          MemRefType::get({*bx * *by * *bz}, t, AffineMap(), workgroup), loc));
      memref::StoreOp::create(rewriter, loc, init, slots.back(), tid);
    }
    auto newLoop = scf::ForOp::create(rewriter, loc, forOp.getLowerBound(),
                                      forOp.getUpperBound(), forOp.getStep());
    Block &newBody = *newLoop.getBody();
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    // Each iteration's values, stored before the body's last barrier (or
    // at its end).
    Operation *end = yield;
    if (Operation *prev = yield->getPrevNode();
        prev && isa<gpu::BarrierOp>(prev))
      end = prev;
    rewriter.setInsertionPoint(end);
    for (auto [v, slot] : llvm::zip(yield.getOperands(), slots))
      memref::StoreOp::create(rewriter, loc, v, slot, tid);
    rewriter.setInsertionPointAfter(&body.front());
    SmallVector<Value> args{newLoop.getInductionVar()};
    for (Value slot : slots)
      args.push_back(memref::LoadOp::create(rewriter, loc, slot, tid));
    // The loaded values replace the iteration arguments (the loads sit
    // after the first barrier, so they are moved with the body).
    for (auto [arg, v] : llvm::zip(body.getArguments().drop_front(),
                                   ArrayRef(args).drop_front()))
      rewriter.replaceAllUsesWith(arg, v);
    rewriter.replaceAllUsesWith(body.getArgument(0), newLoop.getInductionVar());
    rewriter.eraseOp(yield);
    newBody.getOperations().splice(newBody.begin(), body.getOperations());
    rewriter.setInsertionPointAfter(newLoop);
    SmallVector<Value> results;
    for (Value slot : slots)
      results.push_back(memref::LoadOp::create(rewriter, loc, slot, tid));
    rewriter.replaceOp(forOp, results);
  }
  return success();
}

LogicalResult mlir::memopt::convertLaunchToLoops(RewriterBase &rewriter,
                                                 gpu::LaunchOp launch) {
  if (!launch.getPrivateAttributions().empty() ||
      !launch.getBody().hasOneBlock() || launch.getAsyncToken())
    return failure();
  // A cluster runs as one unit: its blocks one after another in every
  // phase, a cluster barrier splitting phases like a block barrier does
  // (over all the cluster's threads), and each block's workgroup memory a
  // slice of one buffer that distributed shared memory reads index.
  int64_t cluster = 1;
  if (launch.hasClusterSize()) {
    gpu::KernelDim3 cs = *launch.getClusterSizeOperandValues();
    std::optional<int64_t> cx = getConstantIntValue(cs.x),
                           cy = getConstantIntValue(cs.y),
                           cz = getConstantIntValue(cs.z);
    if (!cx || cy != 1 || cz != 1 || *cx < 1)
      return failure();
    cluster = *cx;
    // Every cluster whole: a partial one would be skipped.
    std::optional<int64_t> gx =
        getConstantIntValue(launch.getGridSizeOperandValues().x);
    if (!gx || *gx % cluster != 0)
      return failure();
  }
  // Last arrivals: counters on the host, zeroed before the launch, and a
  // workgroup flag (blocks run one after another, so no fences).
  SmallVector<LastArrivalOp> arrivals;
  launch.getBody().walk([&](LastArrivalOp op) { arrivals.push_back(op); });
  for (LastArrivalOp op : arrivals) {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    rewriter.setInsertionPoint(launch);
    Value counters = memref::AllocaOp::create(
        rewriter, loc, MemRefType::get({op.getSlots()}, i32));
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
    scf::ForOp::create(
        rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
        arith::ConstantIndexOp::create(rewriter, loc, op.getSlots()),
        arith::ConstantIndexOp::create(rewriter, loc, 1), ValueRange{},
        [&](OpBuilder &b, Location l, Value i, ValueRange) {
          memref::StoreOp::create(b, l, zero, counters, ValueRange{i});
          scf::YieldOp::create(b, l);
        });
    Value flag = launch.addWorkgroupAttribution(
        MemRefType::get({1}, i32, AffineMap(),
                        gpu::AddressSpaceAttr::get(
                            rewriter.getContext(),
                            gpu::AddressSpace::Workgroup)),
        loc);
    expandLastArrival(rewriter, op, counters, flag, /*fences=*/false);
  }
  // An scf.if without results around synchronization (a tail that only
  // the last block to arrive runs: its condition is the same in every
  // thread of the block) runs as a loop of one or no iteration that begins
  // and ends with a barrier; the kernel must synchronize right before and
  // after the if, which the host checks.
  SmallVector<scf::IfOp> uniformIfs;
  for (Operation &op : launch.getBody().front())
    if (auto ifOp = dyn_cast<scf::IfOp>(op);
        ifOp && ifOp.getNumResults() == 0 && containsSync(ifOp))
      uniformIfs.push_back(ifOp);
  for (scf::IfOp ifOp : uniformIfs) {
    // A barrier on either side, with only ops that write nothing between.
    auto reachesBarrier = [](Operation *o, bool forward) {
      for (; o; o = forward ? o->getNextNode() : o->getPrevNode()) {
        if (isa<gpu::BarrierOp>(o))
          return true;
        if (!isMemoryEffectFree(o) &&
            !hasSingleEffect<MemoryEffects::Read>(o))
          return false;
      }
      return false;
    };
    if (!ifOp.getElseRegion().empty() ||
        !reachesBarrier(ifOp->getPrevNode(), false) ||
        !reachesBarrier(ifOp->getNextNode(), true))
      return failure();
    Location loc = ifOp.getLoc();
    rewriter.setInsertionPoint(ifOp);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value trips = arith::SelectOp::create(rewriter, loc, ifOp.getCondition(),
                                          one, zero);
    auto loop = scf::ForOp::create(rewriter, loc, zero, trips, one);
    loop->setAttr(kMayRunNoIteration, rewriter.getUnitAttr());
    Block *then = ifOp.thenBlock();
    rewriter.setInsertionPointToStart(loop.getBody());
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.inlineBlockBefore(then, loop.getBody()->getTerminator());
    rewriter.eraseOp(loop.getBody()->getTerminator()->getPrevNode());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(ifOp);
  }
  if (failed(lowerAsyncCopies(rewriter, launch)) ||
      failed(demoteLoopValues(rewriter, launch)))
    return failure();
  Block &body = launch.getBody().front();
  // Synchronization must sit where phases are formed: each barrier or
  // shuffle splits the body (or a loop's body) into phases that every
  // thread finishes before the next begins.
  WalkResult unsupported = launch.getBody().walk([&](Operation *op) {
    if (isa<gpu::AllReduceOp, gpu::SubgroupReduceOp>(op))
      return WalkResult::interrupt();
    if (auto shfl = dyn_cast<gpu::ShuffleOp>(op))
      if (shfl.getMode() != gpu::ShuffleMode::XOR)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();
  PhasePlan plan;
  std::vector<PhaseItem> items;
  if (failed(plan.build(body, items)))
    return failure();
  {
    ClusterState state;
    if (failed(checkClusterReads(body, state, plan)))
      return failure();
  }
  auto &phases = plan.phases;

  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value zero = cst(0), one = cst(1);
  gpu::KernelDim3 gridSizes = launch.getGridSizeOperandValues();
  gpu::KernelDim3 blockSizes = launch.getBlockSizeOperandValues();
  std::optional<int64_t> bx = getConstantIntValue(blockSizes.x),
                         by = getConstantIntValue(blockSizes.y),
                         bz = getConstantIntValue(blockSizes.z);
  bool needsPhases = phases.size() > 1 ||
                     !launch.getWorkgroupAttributions().empty() || cluster > 1;
  if (needsPhases && (!bx || !by || !bz))
    return failure();
  int64_t blockThreads = needsPhases ? *bx * *by * *bz : 0;
  int64_t threads = blockThreads * cluster;

  IRMapping map;
  gpu::KernelDim3 bids = launch.getBlockIds(), tids = launch.getThreadIds();
  gpu::KernelDim3 gdims = launch.getGridSize(), bdims = launch.getBlockSize();
  map.map(gdims.x, gridSizes.x);
  map.map(gdims.y, gridSizes.y);
  map.map(gdims.z, gridSizes.z);
  map.map(bdims.x, blockSizes.x);
  map.map(bdims.y, blockSizes.y);
  map.map(bdims.z, blockSizes.z);
  // Blocks run one after another on the host, so the per-block buffers
  // below are allocated once, before the grid loops, and reused.
  // Workgroup memory becomes a host buffer per block (per cluster: one
  // flat buffer, each block's memory a slice of it).
  DenseMap<Value, Value> clusterMemory;
  for (BlockArgument wg : launch.getWorkgroupAttributions()) {
    auto t = cast<MemRefType>(wg.getType());
    if (cluster > 1) {
      if (!t.hasStaticShape() || !t.getLayout().isIdentity())
        return failure();
      auto flatType = MemRefType::get({t.getNumElements() * cluster},
                                      t.getElementType());
      clusterMemory[wg] = memref::AllocaOp::create(
          rewriter, loc, flatType, ValueRange{}, ValueRange{},
          rewriter.getI64IntegerAttr(64));
      continue;
    }
    auto hostType = MemRefType::get(t.getShape(), t.getElementType());
    // Aligned like shared memory: kernels read it with aligned vectors.
    map.map(wg, memref::AllocaOp::create(rewriter, loc, hostType, ValueRange{},
                                         ValueRange{},
                                         rewriter.getI64IntegerAttr(64)));
  }
  // Values that cross a phase boundary (or that a loop run around phases
  // reads) live in per-thread slots.
  DenseMap<Value, Value> slots;
  // A view of a buffer from outside the kernel, through other such views
  // (a flat view of a transposed one), the same for every thread.
  std::function<bool(Value)> isOutsideView = [&](Value v) {
    if (!launch.getBody().isAncestor(v.getParentRegion()))
      return true;
    Operation *def = v.getDefiningOp();
    return isa_and_nonnull<memref::ReinterpretCastOp, memref::CollapseShapeOp,
                           memref::ExpandShapeOp, memref::CastOp,
                           memref::TransposeOp>(def) &&
           llvm::all_of(def->getOperands(), isOutsideView);
  };
  std::function<void(Value)> rebuildView = [&](Value v) {
    if (!launch.getBody().isAncestor(v.getParentRegion()) || map.contains(v))
      return;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      rebuildView(operand);
    Operation *clone = rewriter.clone(*def, map);
    for (auto [from, to] : llvm::zip(def->getResults(), clone->getResults()))
      map.map(from, to);
  };
  for (auto [i, phase] : llvm::enumerate(phases))
    for (Operation *op : phase)
      for (Value res : op->getResults()) {
        bool crosses = isa<gpu::ShuffleOp>(op) ||
                       llvm::any_of(res.getUsers(), [&](Operation *user) {
                         return plan.getPhase(user) != (int)i;
                       });
        if (!crosses || !needsPhases)
          continue;
        Type et = res.getType();
        // A view of a buffer from outside the kernel (the same for every
        // thread) is rebuilt once before the grid loops.
        if (isa<MemRefType>(et) && isOutsideView(res)) {
          rebuildView(res);
          continue;
        }
        if (!et.isIntOrIndexOrFloat() && !isa<VectorType>(et))
          return failure();
        slots[res] = memref::AllocaOp::create(
            rewriter, loc, MemRefType::get({threads}, et));
      }
  // Shuffle operands are published in a per-thread slot too.
  DenseMap<Operation *, Value> published;
  for (auto &phase : phases)
    for (Operation *op : phase)
      if (auto shfl = dyn_cast<gpu::ShuffleOp>(op))
        published[op] = memref::AllocaOp::create(
            rewriter, loc, MemRefType::get({threads}, shfl.getValue().getType()));

  SmallVector<Value> blockIvsOuter;
  Value clustersX =
      cluster > 1 ? arith::DivUIOp::create(rewriter, loc, gridSizes.x,
                                           cst(cluster))
                        .getResult()
                  : gridSizes.x;
  for (Value ub : {gridSizes.z, gridSizes.y, clustersX}) {
    auto forOp = scf::ForOp::create(rewriter, loc, zero, ub, one);
    blockIvsOuter.push_back(forOp.getInductionVar());
    rewriter.setInsertionPointToStart(forOp.getBody());
  }
  map.map(bids.z, blockIvsOuter[0]);
  map.map(bids.y, blockIvsOuter[1]);
  map.map(bids.x, blockIvsOuter[2]);
  if (cluster > 1) {
    // Region values of a cluster launch: cluster ids and sizes.
    gpu::KernelDim3 cids = *launch.getClusterIds();
    gpu::KernelDim3 csizes = *launch.getClusterSize();
    map.map(cids.x, blockIvsOuter[2]);
    map.map(cids.y, blockIvsOuter[1]);
    map.map(cids.z, blockIvsOuter[0]);
    map.map(csizes.x, cst(cluster));
    map.map(csizes.y, one);
    map.map(csizes.z, one);
  }
  Value clusterIv = blockIvsOuter[2];
  // Block `rank`'s workgroup buffer `wg`: its slice of the cluster buffer.
  auto getBlockMemory = [&](Value wg, Value rank) -> Value {
    auto t = cast<MemRefType>(wg.getType());
    SmallVector<int64_t> strides = computeSuffixProduct(t.getShape());
    Value start =
        arith::MulIOp::create(rewriter, loc, rank, cst(t.getNumElements()));
    MLIRContext *ctx = rewriter.getContext();
    return memref::ReinterpretCastOp::create(
        rewriter, loc,
        MemRefType::get(
            t.getShape(), t.getElementType(),
            StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides)),
        clusterMemory.lookup(wg), OpFoldResult(start),
        getAsIndexOpFoldResult(ctx, t.getShape()),
        getAsIndexOpFoldResult(ctx, strides));
  };

  // One phase for every block of the cluster and every thread, before the
  // terminator of `at`; `map` maps the enclosing loops' values.
  auto emitPhase = [&](unsigned i, const IRMapping &outer,
                       Block *at) -> LogicalResult {
    ArrayRef<Operation *> phase = phases[i];
    std::optional<unsigned> shuffleSource;
    if (auto it = plan.afterShuffle.find(i); it != plan.afterShuffle.end())
      shuffleSource = it->second;
    if (phase.empty() && !shuffleSource)
      return success();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(at->getTerminator());
    // The blocks of a cluster, one after another.
    Value rank = zero;
    SmallVector<Value> blockIvs(blockIvsOuter);
    IRMapping phaseMap = outer;
    if (cluster > 1) {
      auto forOp = scf::ForOp::create(rewriter, loc, zero, cst(cluster), one);
      rank = forOp.getInductionVar();
      rewriter.setInsertionPointToStart(forOp.getBody());
      blockIvs[2] = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, clusterIv, cst(cluster)), rank);
      phaseMap.map(bids.x, blockIvs[2]);
      for (auto &[wg, flat] : clusterMemory)
        phaseMap.map(wg, getBlockMemory(wg, rank));
    }
    ClusterPosition position{rank, clusterIv, cst(cluster), clustersX};
    SmallVector<Value> tIvs;
    for (Value ub : {blockSizes.z, blockSizes.y, blockSizes.x}) {
      auto forOp = scf::ForOp::create(rewriter, loc, zero, ub, one);
      tIvs.push_back(forOp.getInductionVar());
      rewriter.setInsertionPointToStart(forOp.getBody());
    }
    phaseMap.map(tids.z, tIvs[0]);
    phaseMap.map(tids.y, tIvs[1]);
    phaseMap.map(tids.x, tIvs[2]);
    Value linearTid;
    if (needsPhases) {
      Value t = arith::MulIOp::create(rewriter, loc, tIvs[0], blockSizes.y);
      t = arith::AddIOp::create(rewriter, loc, t, tIvs[1]);
      t = arith::MulIOp::create(rewriter, loc, t, blockSizes.x);
      linearTid = arith::AddIOp::create(rewriter, loc, t, tIvs[2]);
      if (cluster > 1)
        linearTid = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, rank, cst(blockThreads)),
            linearTid);
    }
    // Reload the values of other phases that this one uses.
    SetVector<Value> used;
    for (Operation *op : phase)
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (slots.count(v))
            used.insert(v);
      });
    for (Value value : used) {
      Operation *def = value.getDefiningOp();
      if (plan.getPhase(def) == (int)i)
        continue;
      // A shuffle's result is filled at the start of the phase after it.
      if (isa<gpu::ShuffleOp>(def) && shuffleSource &&
          plan.getPhase(def) == (int)*shuffleSource)
        continue;
      if (auto shfl = dyn_cast<gpu::ShuffleOp>(def);
          shfl && value == shfl.getValid()) {
        phaseMap.map(value, arith::ConstantIntOp::create(rewriter, loc, 1, 1));
        continue;
      }
      phaseMap.map(value, memref::LoadOp::create(rewriter, loc, slots[value],
                                                 linearTid));
    }
    // Shuffle results ending the previous phase: read the partner's value.
    if (shuffleSource)
      for (Operation *prev : phases[*shuffleSource]) {
        auto shfl = dyn_cast<gpu::ShuffleOp>(prev);
        if (!shfl)
          continue;
        Value off = arith::IndexCastOp::create(
            rewriter, loc, rewriter.getIndexType(),
            phaseMap.lookupOrDefault(shfl.getOffset()));
        Value partner = arith::XOrIOp::create(rewriter, loc, linearTid, off);
        Value v =
            memref::LoadOp::create(rewriter, loc, published[prev], partner);
        phaseMap.map(shfl.getShuffleResult(), v);
        phaseMap.map(shfl.getValid(),
                     arith::ConstantIntOp::create(rewriter, loc, 1, 1));
        memref::StoreOp::create(rewriter, loc, v,
                                slots[shfl.getShuffleResult()], linearTid);
      }
    for (Operation *op : phase) {
      // Occupancy means nothing on the host.
      if (isa<OccupancyHintOp>(op))
        continue;
      // Another block's workgroup memory: its slice of the cluster buffer.
      if (auto load = dyn_cast<ClusterLoadOp>(op)) {
        if (!clusterMemory.contains(load.getMemref()))
          return failure();
        SmallVector<Value> indices;
        for (Value i : load.getIndices())
          indices.push_back(phaseMap.lookupOrDefault(i));
        Value v = memref::LoadOp::create(
            rewriter, loc,
            getBlockMemory(load.getMemref(),
                           phaseMap.lookupOrDefault(load.getRank())),
            indices);
        phaseMap.map(load.getResult(), v);
        if (Value slot = slots.lookup(load.getResult()))
          memref::StoreOp::create(rewriter, loc, v, slot, linearTid);
        continue;
      }
      if (auto shfl = dyn_cast<gpu::ShuffleOp>(op)) {
        memref::StoreOp::create(rewriter, loc,
                                phaseMap.lookupOrDefault(shfl.getValue()),
                                published[op], linearTid);
        continue;
      }
      // Id ops map to loop values; nested ones are replaced after cloning.
      if (Value id = getIdValue(op, tIvs, blockIvs, blockSizes, gridSizes,
                                position, zero, one)) {
        phaseMap.map(op->getResult(0), id);
        if (Value slot = slots.lookup(op->getResult(0)))
          memref::StoreOp::create(rewriter, loc, id, slot, linearTid);
        continue;
      }
      Operation *clone = rewriter.clone(*op, phaseMap);
      SmallVector<std::pair<Operation *, Value>> nestedIds;
      clone->walk([&](Operation *inner) {
        if (Value id = getIdValue(inner, tIvs, blockIvs, blockSizes, gridSizes,
                                  position, zero, one))
          nestedIds.push_back({inner, id});
      });
      for (auto [inner, id] : nestedIds)
        rewriter.replaceOp(inner, id);
      for (auto [res, cres] : llvm::zip(op->getResults(), clone->getResults()))
        if (Value slot = slots.lookup(res))
          memref::StoreOp::create(rewriter, loc, cres, slot, linearTid);
    }
    return success();
  };

  // A loop with synchronization inside runs on the host around its body's
  // phases. Its bounds are the same for every thread of the cluster (the
  // barriers inside require it): values of earlier phases are read from
  // the first thread's slot; thread ids, and block ids within a cluster,
  // are refused.
  auto getLoopOperand = [&](Value v, const IRMapping &outer) -> Value {
    if (Value slot = slots.lookup(v)) {
      // Every thread of the cluster must have computed the same bound.
      Value first = memref::LoadOp::create(rewriter, loc, slot, ValueRange{zero});
      auto check = scf::ForOp::create(rewriter, loc, zero, cst(threads), one);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(check.getBody());
        Value mine = memref::LoadOp::create(rewriter, loc, slot,
                                            ValueRange{check.getInductionVar()});
        cf::AssertOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  mine, first),
            "memopt-launch-to-loops: the threads of a block or cluster "
            "disagree on the bounds of a loop around barriers");
      }
      return first;
    }
    if (!launch.getBody().isAncestor(v.getParentRegion()))
      return outer.lookupOrDefault(v);
    if (v == bids.x && cluster > 1)
      return Value();
    if (llvm::is_contained({tids.x, tids.y, tids.z}, v))
      return Value();
    return outer.lookupOrNull(v);
  };
  std::function<LogicalResult(ArrayRef<PhaseItem>, const IRMapping &,
                              Block *)>
      emitItems = [&](ArrayRef<PhaseItem> list, const IRMapping &outer,
                      Block *at) -> LogicalResult {
    for (const PhaseItem &item : list) {
      scf::ForOp loop = item.loop;
      if (!loop) {
        if (failed(emitPhase(item.phase, outer, at)))
          return failure();
        continue;
      }
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(at->getTerminator());
      SmallVector<Value> bounds;
      for (Value v : {loop.getLowerBound(), loop.getUpperBound(),
                      loop.getStep()}) {
        bounds.push_back(getLoopOperand(v, outer));
        if (!bounds.back())
          return failure();
      }
      // A loop that runs no iteration would leave a phase boundary where
      // the kernel has no barrier (except an if's, which sits between two).
      if (!loop->hasAttr(kMayRunNoIteration))
        cf::AssertOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                  bounds[0], bounds[1]),
            "memopt-launch-to-loops: a loop around barriers runs no iteration");
      auto forOp =
          scf::ForOp::create(rewriter, loc, bounds[0], bounds[1], bounds[2]);
      IRMapping inner = outer;
      inner.map(loop.getInductionVar(), forOp.getInductionVar());
      if (failed(emitItems(item.body, inner, forOp.getBody())))
        return failure();
    }
    return success();
  };
  if (failed(emitItems(items, map, rewriter.getInsertionBlock())))
    return failure();
  rewriter.eraseOp(launch);
  return success();
}

namespace {
struct MemoptLaunchToLoopsPass final
    : memopt::impl::MemoptLaunchToLoopsPassBase<MemoptLaunchToLoopsPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches) {
      if (succeeded(convertLaunchToLoops(rewriter, launch)))
        continue;
      launch.emitOpError("cannot run on the host: synchronization is nested "
                         "in control flow (other than a loop without results "
                         "that begins and ends with a barrier, whose bounds "
                         "no thread id decides), a shuffle is "
                         "not xor, or a value "
                         "crossing a barrier is not a scalar or vector; or "
                         "a cluster is not constant and whole, or another "
                         "block's shared memory is read without a cluster "
                         "barrier after its writes or after an arrival");
      return signalPassFailure();
    }
  }
};
} // namespace

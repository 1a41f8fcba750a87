//===- PipelineLoads.cpp - cp.async software pipelining -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-pipeline-loads: in loops over tiles inside
// gpu.launch kernels, each thread's global loads become asynchronous copies
// (cp.async) into a multi-buffered shared-memory ring, issued `stages - 1`
// iterations ahead of their use. The loop is rewritten by upstream's
// scf::pipelineForLoop with this pass's schedule: the copies, their address
// computation, the commit and the wait in stage 0, everything else in the
// last stage. The epilogue is not peeled: the copies of iterations past the
// end are predicated off (zero bytes read) while their commit still runs,
// so every iteration commits exactly one group and `wait_group(stages - 1)`
// always means "this iteration's tile has landed".
//
// Each thread copies into and reads from its own ring slots, so no barrier
// is needed: cp.async.wait_group orders a thread's copies before its own
// later reads.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/AccessPattern.h"
#include "memopt/Analysis/Traffic.h"
#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTPIPELINELOADSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// A global load of the loop body that becomes an asynchronous copy.
struct StreamedLoad {
  Operation *op;
  Value memref;
  SmallVector<Value> indices;
  Type elementType;
  int64_t elements;
  /// Bytes one thread copies per iteration.
  int64_t bytes() const {
    return elements * (elementType.getIntOrFloatBitWidth() / 8);
  }
  /// Ops of the loop body computing the indices, in program order.
  SmallVector<Operation *> slice;
};

/// A loop to pipeline and its loads.
struct LoopPlan {
  scf::ForOp loop;
  int64_t tripCount = 0;
  SmallVector<StreamedLoad> loads;
};
} // namespace

static Value cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The loop body ops that `values` depend on (inside `body`, program
/// order), or failure when one is not a pure op at the top level of the
/// body or depends on a loop-carried value.
static LogicalResult getAddressSlice(scf::ForOp loop, ValueRange values,
                                     SmallVector<Operation *> &slice,
                                     std::string &why) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> work(values.begin(), values.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body) {
        why = "its address depends on a value carried by the loop";
        return failure();
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isAncestor(def))
      continue;
    // Stage 0 runs the slice for iterations past the end too: it must be
    // speculatable (no division by a runtime value, no memory effects).
    if (def->getBlock() != body || !isPure(def) ||
        def->getNumRegions() != 0) {
      why = "its address is computed by an op that cannot be speculated "
            "(memory effects, regions, or a division that may trap)";
      return failure();
    }
    if (ops.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  slice.assign(ops.begin(), ops.end());
  llvm::sort(slice, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return success();
}

/// Whether some op of `loop` may write memory that `memref` views.
static bool loopWrites(scf::ForOp loop, Value memref) {
  Value root = getViewRoot(memref);
  WalkResult r = loop.getBody()->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      // Unknown ops (without the interface) may write anything.
      return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
                     isa<scf::YieldOp>(op)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (auto &e : list) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      Value target = e.getValue();
      if (!target || getViewRoot(target) == root)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Plans `loop`: its global loads that can be copied asynchronously.
/// Returns failure with `why` when the loop reads global memory but cannot
/// be pipelined; an empty plan when it reads none.
static FailureOr<LoopPlan> planLoop(scf::ForOp loop, std::string &why) {
  LoopPlan plan;
  plan.loop = loop;
  // Loops that read no global memory are not this pass's business.
  // The global loads of the body (memref.load and vector.load; the access
  // model's reading of an op's memref, indices and type).
  auto globalLoad = [](Operation &op) -> std::optional<AccessParts> {
    if (!isa<memref::LoadOp, vector::LoadOp>(op))
      return std::nullopt;
    std::optional<AccessParts> parts = getAccessParts(&op);
    if (!parts || isOnChipMemory(cast<MemRefType>(parts->memref.getType())))
      return std::nullopt;
    return parts;
  };
  bool readsGlobal = llvm::any_of(*loop.getBody(), [&](Operation &op) {
    return globalLoad(op).has_value();
  });
  if (!readsGlobal)
    return plan;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0) {
    why = "its trip count is not a constant";
    return failure();
  }
  plan.tripCount = *ub > *lb ? llvm::divideCeil(*ub - *lb, *step) : 0;
  WalkResult sync = loop.getBody()->walk([](Operation *op) {
    return isa<gpu::BarrierOp, gpu::ShuffleOp>(op) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
  });
  if (sync.wasInterrupted()) {
    why = "it synchronizes threads (barrier or shuffle)";
    return failure();
  }
  SmallVector<std::pair<Operation *, std::string>> refused;
  for (Operation &op : *loop.getBody()) {
    std::optional<AccessParts> parts = globalLoad(op);
    if (!parts)
      continue;
    Value memref = parts->memref;
    ValueRange indices = parts->indices;
    Type type = parts->accessType;
    std::optional<int64_t> align;
    if (auto l = dyn_cast<vector::LoadOp>(op))
      if (auto a = l.getAlignment())
        align = *a;
    auto mt = cast<MemRefType>(memref.getType());
    StreamedLoad s;
    s.op = &op;
    s.memref = memref;
    s.indices.assign(indices.begin(), indices.end());
    auto vt = dyn_cast<VectorType>(type);
    if (vt && vt.getRank() != 1) {
      refused.push_back({&op, "it is a multi-dimensional vector load"});
      continue;
    }
    s.elementType = vt ? vt.getElementType() : type;
    s.elements = vt ? vt.getNumElements() : 1;
    if (!s.elementType.isIntOrFloat()) {
      refused.push_back({&op, "its element type is not an integer or float"});
      continue;
    }
    int64_t bytes = s.bytes();
    if (bytes != 4 && bytes != 8 && bytes != 16) {
      refused.push_back(
          {&op, "its " + std::to_string(bytes) +
                    " bytes are not a cp.async size (4, 8 or 16)"});
      continue;
    }
    // cp.async needs the global address aligned to the copy size: a scalar
    // load is naturally aligned, a vector load must say so.
    if (s.elements > 1 && (!align || *align < bytes)) {
      refused.push_back(
          {&op, "its alignment is not known to be " + std::to_string(bytes) +
                    " bytes"});
      continue;
    }
    if (!mt.getLayout().isIdentity() && !mt.getLayout().getAffineMap()
                                             .isIdentity()) {
      refused.push_back({&op, "its memref has a non-identity layout"});
      continue;
    }
    if (loop->isAncestor(memref.getParentRegion()->getParentOp()) ||
        memref.getParentRegion() == &loop.getRegion()) {
      refused.push_back({&op, "its memref is defined in the loop"});
      continue;
    }
    if (loopWrites(loop, memref)) {
      refused.push_back({&op, "the loop writes the buffer it reads"});
      continue;
    }
    std::string sliceWhy;
    if (failed(getAddressSlice(loop, indices, s.slice, sliceWhy))) {
      refused.push_back({&op, sliceWhy});
      continue;
    }
    plan.loads.push_back(std::move(s));
  }
  for (auto &[op, reason] : refused)
    op->emitRemark() << "load not prefetched: " << reason;
  if (plan.loads.empty()) {
    if (!refused.empty()) {
      why = "no load of the loop can be copied asynchronously";
      return failure();
    }
    return plan;
  }
  return plan;
}

/// Rewrites the loads of `plan` into copies into `rings` (one per load,
/// [stages][threads][elements]) and pipelines the loop.
static LogicalResult pipelineLoop(RewriterBase &rewriter, LoopPlan &plan,
                                  ArrayRef<Value> rings, Value tid,
                                  unsigned stages, std::string &why) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  // The iteration number modulo the stages picks the ring slot.
  auto slotOf = [&](OpBuilder &b) -> Value {
    Value k = arith::SubIOp::create(b, loc, loop.getInductionVar(),
                                    loop.getLowerBound());
    k = arith::DivUIOp::create(b, loc, k, loop.getStep());
    return arith::RemUIOp::create(b, loc, k, cIdx(b, loc, stages));
  };
  // Stage 0, before the original body: the address computations (cloned,
  // so that the stages share no values), the copies, one commit, one wait.
  Operation *origFirst = &body->front();
  OpBuilder b(origFirst);
  SmallVector<Value> tokens;
  Value zero = cIdx(b, loc, 0);
  Value slot = slotOf(b);
  for (auto [load, ring] : llvm::zip(plan.loads, rings)) {
    IRMapping map;
    for (Operation *op : load.slice)
      b.clone(*op, map);
    SmallVector<Value> src = llvm::map_to_vector(
        load.indices, [&](Value v) { return map.lookupOrDefault(v); });
    int64_t bytes = load.bytes();
    auto copy = nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ring,
        ValueRange{slot, tid, zero}, load.memref, src,
        b.getIndexAttr(load.elements), /*srcElements=*/Value(),
        bytes == 16 ? b.getUnitAttr() : UnitAttr());
    tokens.push_back(copy.getAsyncToken());
  }
  auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens);
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group.getAsyncToken(),
                                   b.getI32IntegerAttr(stages - 1));
  DenseSet<Operation *> stage0;
  for (Operation *op = &body->front(); op != origFirst; op = op->getNextNode())
    stage0.insert(op);
  // Last stage: each load reads its slot of the ring.
  for (auto [load, ring] : llvm::zip(plan.loads, rings)) {
    b.setInsertionPoint(load.op);
    Value useSlot = slotOf(b);
    Value c0 = cIdx(b, loc, 0);
    Value v;
    if (load.elements == 1)
      v = memref::LoadOp::create(b, loc, ring, ValueRange{useSlot, tid, c0});
    else
      v = vector::LoadOp::create(
          b, loc, VectorType::get({load.elements}, load.elementType), ring,
          ValueRange{useSlot, tid, c0}, /*nontemporal=*/false,
          llvm::MaybeAlign(load.bytes()));
    rewriter.replaceOp(load.op, v);
  }
  if (stages == 1)
    return success();

  scf::PipeliningOption options;
  options.peelEpilogue = false;
  options.getScheduleFn =
      [&](scf::ForOp forOp,
          std::vector<std::pair<Operation *, unsigned>> &schedule) {
        for (Operation &op : forOp.getBody()->without_terminator())
          if (stage0.contains(&op))
            schedule.push_back({&op, 0});
        for (Operation &op : forOp.getBody()->without_terminator())
          if (!stage0.contains(&op))
            schedule.push_back({&op, stages - 1});
      };
  // Past the last iteration a copy reads nothing (zero bytes, index 0);
  // the commit and the wait still run, keeping one group per iteration.
  options.predicateFn = [](RewriterBase &rw, Operation *op,
                           Value pred) -> Operation * {
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      OpBuilder::InsertionGuard guard(rw);
      rw.setInsertionPoint(copy);
      Location l = copy.getLoc();
      Value c0 = cIdx(rw, l, 0);
      Value n = arith::SelectOp::create(
          rw, l, pred, cIdx(rw, l, copy.getDstElements().getZExtValue()), c0);
      SmallVector<Value> src = llvm::map_to_vector(
          copy.getSrcIndices(), [&](Value v) -> Value {
            return arith::SelectOp::create(rw, l, pred, v, c0);
          });
      auto predicated = nvgpu::DeviceAsyncCopyOp::create(
          rw, l, copy.getAsyncToken().getType(), copy.getDst(),
          copy.getDstIndices(), copy.getSrc(), src, copy.getDstElementsAttr(),
          n, copy.getBypassL1Attr());
      rw.replaceOp(copy, predicated);
      return predicated;
    }
    if (isPure(op) ||
        isa<nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp>(op))
      return op;
    return nullptr;
  };
  // The pipeliner emits the prologue at the rewriter's insertion point.
  rewriter.setInsertionPoint(loop);
  FailureOr<scf::ForOp> result =
      scf::pipelineForLoop(rewriter, loop, options);
  if (failed(result)) {
    why = "the upstream pipeliner refused the loop";
    return failure();
  }
  // The copies predicated off at the end still zero-fill their slots: drain
  // them before another loop reuses the ring.
  rewriter.setInsertionPointAfter(*result);
  auto drain = nvgpu::DeviceAsyncCreateGroupOp::create(
      rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
      ValueRange{});
  nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, drain.getAsyncToken(),
                                   rewriter.getI32IntegerAttr(0));
  return success();
}

namespace {
struct MemoptPipelineLoadsPass
    : public memopt::impl::MemoptPipelineLoadsPassBase<
          MemoptPipelineLoadsPass> {
  using Base::Base;

  /// Shared memory one block may use: the option, else the target's limit
  /// with opt-in.
  int64_t blockLimit = 0;

  void runOnOperation() override {
    blockLimit = maxSharedBytes
                     ? int64_t(maxSharedBytes)
                     : getTarget(getOperation()).getMaxSharedMemoryPerBlock();
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    for (gpu::LaunchOp launch : launches)
      if (failed(processLaunch(launch)))
        return signalPassFailure();
  }

  LogicalResult processLaunch(gpu::LaunchOp launch) {
    SmallVector<scf::ForOp> loops;
    launch.getBody().walk([&](scf::ForOp loop) {
      bool innermost = !loop.getBody()
                            ->walk([](scf::ForOp) {
                              return WalkResult::interrupt();
                            })
                            .wasInterrupted();
      // A loop that already copies asynchronously (a persistent row
      // kernel's prefetch) has its schedule.
      bool copies = loop.getBody()
                        ->walk([](nvgpu::DeviceAsyncCopyOp) {
                          return WalkResult::interrupt();
                        })
                        .wasInterrupted();
      if (innermost && !copies)
        loops.push_back(loop);
    });
    SmallVector<LoopPlan> plans;
    for (scf::ForOp loop : loops) {
      std::string why;
      FailureOr<LoopPlan> plan = planLoop(loop, why);
      if (failed(plan)) {
        loop.emitRemark() << "loop not pipelined: " << why;
        continue;
      }
      if (!plan->loads.empty())
        plans.push_back(std::move(*plan));
    }
    if (plans.empty())
      return success();
    auto refuseAll = [&](const Twine &why) {
      for (LoopPlan &p : plans)
        p.loop.emitRemark() << "loop not pipelined: " << why;
      return success();
    };
    // Dynamic shared memory the kernel reserves without using it (an
    // occupancy limit) hosts the rings; memory it uses is left alone.
    bool usesDynamic = launch.getBody()
                           .walk([](gpu::DynamicSharedMemoryOp) {
                             return WalkResult::interrupt();
                           })
                           .wasInterrupted();
    if (usesDynamic)
      return refuseAll("the kernel already uses dynamic shared memory");
    int64_t reserved = 0;
    if (Value size = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> c = getConstantIntValue(size);
      if (!c)
        return refuseAll("its dynamic shared memory size is not a constant");
      reserved = *c;
    }
    gpu::KernelDim3 bs = launch.getBlockSizeOperandValues();
    std::optional<int64_t> bx = getConstantIntValue(bs.x),
                           by = getConstantIntValue(bs.y),
                           bz = getConstantIntValue(bs.z);
    if (!bx || !by || !bz)
      return refuseAll("the block size is not a constant");
    int64_t threads = *bx * *by * *bz;
    // One ring per load of a loop: [stages][threads][elements]. The loops
    // run one after another and each drains its copies at its end, so they
    // share the shared memory.
    int64_t stageBytes = 0;
    for (LoopPlan &p : plans) {
      int64_t bytes = 0;
      for (StreamedLoad &l : p.loads)
        bytes += llvm::alignTo(threads * l.bytes(), 16);
      stageBytes = std::max(stageBytes, bytes);
    }
    unsigned numStages = stages;
    if (numStages == 0) {
      // As deep as the budget (or the reservation) allows, up to 4 tiles in
      // flight.
      numStages = std::min<int64_t>(
          4, std::max<int64_t>(sharedBudgetBytes, reserved) / stageBytes);
      if (numStages < 2)
        return refuseAll("one stage (" + Twine(stageBytes) +
                         " bytes) leaves no room for a second within the "
                         "shared-memory budget of " +
                         Twine(unsigned(sharedBudgetBytes)) + " bytes");
    }
    // Rings, reservation and static buffers must fit one block's shared
    // memory (the ring bytes are an upper bound: same-type rings are
    // shared between loops).
    int64_t staticBytes = 0;
    for (BlockArgument wgArg : launch.getWorkgroupAttributions())
      staticBytes += std::max<int64_t>(
          0, getStaticBytes(cast<MemRefType>(wgArg.getType())));
    int64_t ringBytes = 0;
    for (LoopPlan &p : plans)
      for (StreamedLoad &l : p.loads)
        ringBytes += llvm::alignTo(numStages * threads * l.bytes(), 16);
    if (staticBytes + std::max(ringBytes, reserved) > blockLimit)
      return refuseAll(Twine(numStages) + " stages need " +
                       Twine(staticBytes + std::max(ringBytes, reserved)) +
                       " bytes of shared memory, over the block limit of " +
                       Twine(blockLimit));
    SmallVector<LoopPlan> ready;
    for (LoopPlan &p : plans) {
      if (p.tripCount < numStages) {
        p.loop.emitRemark() << "loop not pipelined: fewer iterations ("
                            << p.tripCount << ") than stages (" << numStages
                            << ")";
        continue;
      }
      ready.push_back(std::move(p));
    }
    if (ready.empty())
      return success();

    IRRewriter rewriter(launch.getContext());
    Location loc = launch.getLoc();
    Block &entry = launch.getBody().front();
    rewriter.setInsertionPointToStart(&entry);
    gpu::KernelDim3 t = launch.getThreadIds();
    gpu::KernelDim3 d = launch.getBlockSize();
    Value tid = arith::AddIOp::create(
        rewriter, loc, t.x,
        arith::MulIOp::create(
            rewriter, loc, d.x,
            arith::AddIOp::create(
                rewriter, loc, t.y,
                arith::MulIOp::create(rewriter, loc, d.y, t.z))));
    auto wg = gpu::AddressSpaceAttr::get(launch.getContext(),
                                         gpu::AddressSpace::Workgroup);
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        rewriter, loc,
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        AffineMap(), wg));
    // Loops run one after another and drain their copies at their end, so
    // a later loop may reuse an earlier loop's ring of the same type: each
    // thread's slots are then at the same bytes, which only that thread
    // touches. Rings of other types get bytes of their own (another slot
    // size would put a thread's slots over another thread's).
    int64_t total = 0;
    Operation *ringAnchor = dyn.getDefiningOp();
    DenseMap<Type, SmallVector<Value>> ringsByType;
    for (LoopPlan &p : ready) {
      SmallVector<Value> rings;
      DenseMap<Type, unsigned> usedOfType;
      for (StreamedLoad &l : p.loads) {
        auto ringType = MemRefType::get(
            {(int64_t)numStages, threads, l.elements}, l.elementType,
            AffineMap(), wg);
        SmallVector<Value> &pool = ringsByType[ringType];
        unsigned &used = usedOfType[ringType];
        if (used == pool.size()) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointAfter(ringAnchor);
          pool.push_back(memref::ViewOp::create(rewriter, loc, ringType, dyn,
                                                cIdx(rewriter, loc, total),
                                                ValueRange{}));
          ringAnchor = pool.back().getDefiningOp();
          total += llvm::alignTo(numStages * threads * l.bytes(), 16);
        }
        rings.push_back(pool[used++]);
      }
      std::string why;
      if (failed(pipelineLoop(rewriter, p, rings, tid, numStages, why)))
        return p.loop.emitError() << "pipelining failed: " << why;
    }
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(launch);
    Value size = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getI32IntegerAttr(std::max<int64_t>(total, reserved)));
    launch.getDynamicSharedMemorySizeMutable().assign(size);
    return success();
  }
};
} // namespace

//===- SplitRowReductions.cpp - long rows as segments -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-split-row-reductions. A reduction over its
// innermost loop with too few rows to give every multiprocessor a block
// (a sum over a whole tensor, 16 rows of a million elements: a row kernel
// has one block per row, a cluster of at most max-cluster-size at best)
// is, on buffers, split in two reductions (fewer rows than
// multiprocessors, rows of at least two segments):
//
//   stage 1  the rows cut into K segments of S elements (the row's buffer
//            dims expanded [R] -> [K, S] by memref.expand_shape): P x K
//            rows of S, reduced through the op's own body into a partial
//            [P..., K] seeded with the combiner's identity;
//   stage 2  the partial combined over K into the original output (its
//            initial value kept), in segment order: deterministic.
//
// Both are row reductions kernel formation has strategies for; the partial
// is a buffer the traffic model counts. Only reductions that would be a
// row group of their own: every buffer they read is a function argument
// nothing writes (no producer to fuse, no statistic of the same rows to
// share a kernel with) and no op reads their result back over the rows,
// directly or through ops over fewer points (no normalization to hold the
// row for). K is the largest divisor of the row length within 8 segments
// per multiprocessor for all rows, segments of at least 128 x
// row-register-elements (4096 by default) elements; when there are none,
// shorter ones of at least 32 x row-register-elements (1024): the fewest
// that give every multiprocessor one, else the most there are. A remark
// says what was split or why a reduction with too few rows was not.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/Grouping.h"
#include "KernelFormation/KnobOptions.h"
#include "TensorUtils.h"
#include "memopt/Analysis/Traffic.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#include <map>
#include <tuple>

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTSPLITROWREDUCTIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Segments per multiprocessor, over all rows, that the split aims for.
static constexpr int64_t kSegmentsPerMultiprocessor = 8;
/// The shortest segment worth a row of its own, in threads of a block that
/// hold row-register-elements each (4096 elements by default).
static constexpr int64_t kMinSegmentThreads = 128;
/// The shortest segment taken when no long one divides the row (a warp's
/// worth of registers, 1024 elements by default).
static constexpr int64_t kMinShortSegmentThreads = 32;

/// Calls `fn` on each use of buffer `root`, through views, by ops other
/// than `self`; stops at the first for which it returns true.
static bool anyUse(Value root, Operation *self,
                   function_ref<bool(OpOperand &)> fn) {
  SmallVector<Value> work = {root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *u = use.getOwner();
      if (u == self)
        continue;
      if (isa<ViewLikeOpInterface>(u))
        llvm::append_range(work, u->getResults());
      else if (fn(use))
        return true;
    }
  }
  return false;
}

/// Whether some op other than `self` writes buffer `root`.
static bool isWrittenByOthers(Value root, Operation *self) {
  return anyUse(root, self, [](OpOperand &use) {
    Operation *u = use.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(u))
      return dps.isDpsInit(&use);
    if (isa<memref::CopyOp>(u))
      return use.getOperandNumber() == 1;
    return !isa<func::ReturnOp, memref::DeallocOp>(u); // unknown: writes
  });
}

/// Whether some op other than `self` reads buffer `root` over more than
/// `points` iteration points, directly or through the buffers that ops over
/// fewer points compute from it (RMSNorm's mean square from the sum of
/// squares, then the normalization over the rows).
static bool isReadOverMore(Value root, Operation *self, int64_t points) {
  SmallVector<Value> roots = {root};
  DenseSet<Value> seen = {root};
  while (!roots.empty()) {
    Value r = roots.pop_back_val();
    bool over = anyUse(r, self, [&](OpOperand &use) {
      // (Copies read the buffer's own points.)
      auto g = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!g || (g.isDpsInit(&use) && !g.payloadUsesValueFromOperand(&use)))
        return false;
      int64_t n = 1;
      for (int64_t e : g.getStaticLoopRanges())
        n = e <= 0 || n > INT64_MAX / e ? INT64_MAX : n * e;
      if (n > points)
        return true;
      for (Value out : g.getDpsInits())
        if (seen.insert(getViewRoot(out)).second)
          roots.push_back(getViewRoot(out));
      return false;
    });
    if (over)
      return true;
  }
  return false;
}

namespace {
/// A row reduction the pass may split, with what it found.
struct Candidate {
  linalg::GenericOp op;
  arith::AtomicRMWKind kind = arith::AtomicRMWKind::addf;
  int64_t rows = 1, length = 0, segments = 0;
  /// The result is read back over the rows (by a normalization, then a
  /// pass of its own).
  bool readBack = false;
};
} // namespace

/// "N row(s) of L elements".
static std::string describeRows(const Candidate &c) {
  return std::to_string(c.rows) + (c.rows == 1 ? " row of " : " rows of ") +
         std::to_string(c.length) + " elements";
}

/// Matches `g` (a reduction of its innermost loop alone, one output, static
/// loops) and decides its segments. Returns false without a remark for
/// ops that are not such reductions or have rows enough; with `why` set
/// for those with too few rows that cannot be split.
static bool matchCandidate(linalg::GenericOp g, const KernelTargetInfo &target,
                           Candidate &c, std::string &why) {
  if (!g.hasPureBufferSemantics() || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 1)
    return false;
  auto iters = g.getIteratorTypesArray();
  unsigned n = iters.size();
  if (iters[n - 1] != utils::IteratorType::reduction)
    return false;
  SmallVector<int64_t> ranges = g.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) { return r <= 0; }))
    return false;
  c.op = g;
  c.length = ranges[n - 1];
  for (unsigned i = 0; i + 1 < n; ++i)
    c.rows *= ranges[i];
  // A row per multiprocessor or more: the row family's business (fewer
  // rows get a cluster of at most max-cluster-size blocks each, or one
  // block each when streamed).
  if (c.rows >= (int64_t)target.multiprocessors)
    return false;
  auto outType = cast<MemRefType>(g.getDpsInits()[0].getType());
  int64_t minSegment = kMinSegmentThreads * target.rowRegisterElements;
  if (c.length < 2 * minSegment)
    return false;
  // From here on the row is long and the rows few: say why when not split.
  FailureOr<arith::AtomicRMWKind> kind = kf::matchCombiner(g, why);
  if (failed(kind))
    return false;
  c.kind = *kind;
  if (!g.getBody()->getOps<linalg::IndexOp>().empty()) {
    why = "its body reads the loop indices";
    return false;
  }
  AffineMap outMap = g.getMatchingIndexingMap(g.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation() || outMap.isFunctionOfDim(n - 1) ||
      !outType.getLayout().isIdentity()) {
    why = "its output is not an identity-layout buffer indexed by the rows";
    return false;
  }
  for (OpOperand *in : g.getDpsInputOperands()) {
    auto mt = dyn_cast<MemRefType>(in->get().getType());
    if (!mt)
      continue;
    // Every buffer read is an argument nothing writes: a producer would be
    // materialized, a statistic of the same rows (log-sum-exp's maximum)
    // would no longer share the row kernel.
    Value root = getViewRoot(in->get());
    if (!isa<BlockArgument>(root) || isWrittenByOthers(root, g)) {
      why = "it reads a buffer computed in the function (its producer "
            "would no longer fuse with it)";
      return false;
    }
    // Read along the row: one result is the row loop itself, no other
    // mentions it (that dim is expanded into [K, S]).
    AffineMap m = g.getMatchingIndexingMap(in);
    if (!m.isFunctionOfDim(n - 1))
      continue;
    auto alongRow = [&](AffineExpr e) { return e.isFunctionOfDim(n - 1); };
    if (llvm::count_if(m.getResults(), alongRow) != 1 ||
        !m.getResultPosition(getAffineDimExpr(n - 1, g.getContext())) ||
        !mt.getLayout().isIdentity()) {
      why = "an input is not an identity-layout buffer indexed by the row "
            "loop alone in one dim";
      return false;
    }
  }
  if (isReadOverMore(getViewRoot(g.getDpsInits()[0]), g, c.rows)) {
    // A normalization keeps its rows on chip for the read-back, unless they
    // are too long for the chip's largest cluster's registers and so few
    // that the row family streams them over a handful of multiprocessors
    // (x - mean(x) over a whole tensor of 16M elements: one block read it
    // twice). Then the statistic is split and the read-back is a full grid
    // of its own, a second pass over the input. (The chip's cluster limit,
    // not max-cluster-size: that knob tunes the row family's own forms.)
    int64_t chipCluster = 1;
    if (TargetAttr t = getTarget(g))
      chipCluster = std::max<int64_t>(1, t.getMaxClusterSize());
    int64_t clusterElements = chipCluster * target.maxThreadsPerBlock *
                              target.rowRegisterElements;
    if (c.length <= clusterElements ||
        2 * c.rows * chipCluster > (int64_t)target.multiprocessors) {
      why = "its result is read back over the rows (a normalization)";
      return false;
    }
    c.readBack = true;
  }
  int64_t wanted = llvm::divideCeil(
      kSegmentsPerMultiprocessor * (int64_t)target.multiprocessors, c.rows);
  for (int64_t k = std::min(wanted, c.length / minSegment); k >= 2; --k)
    if (c.length % k == 0) {
      c.segments = k;
      break;
    }
  // No long segments (97 rows of 61 x 1409 have no divisor of at least
  // 4096 elements: the rows alone, over clusters, took 1.4x torch.compile's
  // time): shorter ones, as long as a segment keeps a warp's registers
  // busy, the fewest that give every multiprocessor one or else the most
  // there are. (Few long segments are the row family's to spread over
  // clusters.)
  int64_t minShort = kMinShortSegmentThreads * target.rowRegisterElements;
  int64_t most = 0;
  for (int64_t k = 2; c.segments < 2 && k <= c.length / minShort; ++k) {
    if (c.length % k != 0)
      continue;
    if (k * c.rows >= (int64_t)target.multiprocessors)
      c.segments = k;
    most = k;
  }
  if (c.segments < 2)
    c.segments = most;
  if (c.segments < 2) {
    why = "no divisor of the row length gives segments of " +
          std::to_string(minShort) + " elements or more";
    return false;
  }
  return true;
}

/// Rewrites candidate `c` into its two stages; stage 1 goes right after
/// `after` when given (the stage 1 of a reduction over the same segments
/// of the same inputs: one row group then reads them once).
static linalg::GenericOp split(RewriterBase &rewriter, const Candidate &c,
                               Operation *after) {
  linalg::GenericOp g = c.op;
  Location loc = g.getLoc();
  MLIRContext *ctx = g.getContext();
  unsigned n = g.getNumLoops();
  int64_t k = c.segments, s = c.length / k;
  OpOperand &out = g.getDpsInitsMutable()[0];
  auto outType = cast<MemRefType>(out.get().getType());
  Type acc = outType.getElementType();
  // The fill of the output, when the last op before g that touches it,
  // moves just before g, and stage 1 before that fill: the stage that
  // combines into the output seeds its result from the fill.
  Operation *at = g;
  for (Operation *prev = g->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (!llvm::is_contained(prev->getOperands(), out.get()))
      continue;
    auto fill = dyn_cast<linalg::GenericOp>(prev);
    if (fill && fill.getNumDpsInits() == 1 &&
        fill.getDpsInits()[0] == out.get() && kf::getFillValue(fill)) {
      rewriter.moveOpBefore(fill, g);
      at = fill;
    }
    break;
  }
  if (after)
    rewriter.setInsertionPointAfter(after);
  else
    rewriter.setInsertionPoint(at);
  // Loops of stage 1: g's parallel loops, the segment, the position in it.
  AffineExpr seg = getAffineDimExpr(n - 1, ctx), pos = getAffineDimExpr(n, ctx);
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : g.getDpsInputOperands()) {
    AffineMap m = g.getMatchingIndexingMap(in);
    auto mt = dyn_cast<MemRefType>(in->get().getType());
    if (!mt || !m.isFunctionOfDim(n - 1)) {
      ins.push_back(in->get());
      maps.push_back(AffineMap::get(n + 1, 0, m.getResults(), ctx));
      continue;
    }
    SmallVector<AffineExpr> exprs;
    SmallVector<ReassociationIndices> reassoc;
    SmallVector<int64_t> shape;
    for (auto [i, e] : llvm::enumerate(m.getResults())) {
      if (e.isFunctionOfDim(n - 1)) {
        reassoc.push_back({(int64_t)shape.size(), (int64_t)shape.size() + 1});
        shape.append({k, s});
        exprs.append({seg, pos});
        continue;
      }
      reassoc.push_back({(int64_t)shape.size()});
      shape.push_back(mt.getDimSize(i));
      exprs.push_back(e);
    }
    auto expandedType = MemRefType::get(shape, mt.getElementType(),
                                        AffineMap(), mt.getMemorySpace());
    ins.push_back(memref::ExpandShapeOp::create(rewriter, loc, expandedType,
                                                in->get(), reassoc));
    maps.push_back(AffineMap::get(n + 1, 0, exprs, ctx));
  }
  AffineMap outMap = g.getMatchingIndexingMap(&out);
  SmallVector<int64_t> partialShape(outType.getShape());
  partialShape.push_back(k);
  SmallVector<AffineExpr> partialExprs(outMap.getResults());
  partialExprs.push_back(seg);
  auto partialType = MemRefType::get(partialShape, acc, AffineMap(),
                                     outType.getMemorySpace());
  Value partial = memref::AllocOp::create(rewriter, loc, partialType,
                                          rewriter.getI64IntegerAttr(64));
  createFillGeneric(rewriter, loc,
                    arith::getIdentityValue(c.kind, acc, rewriter, loc),
                    partial);
  maps.push_back(AffineMap::get(n + 1, 0, partialExprs, ctx));
  SmallVector<utils::IteratorType> iters1(n + 1,
                                          utils::IteratorType::parallel);
  iters1[n] = utils::IteratorType::reduction;
  auto stage1 = linalg::GenericOp::create(rewriter, loc, TypeRange{}, ins,
                                          ValueRange{partial}, maps, iters1);
  rewriter.cloneRegionBefore(g.getRegion(), stage1.getRegion(),
                             stage1.getRegion().begin());
  // Stage 2: g's loops, the row loop now over the segments.
  rewriter.setInsertionPoint(g);
  SmallVector<AffineMap> maps2 = {
      AffineMap::get(n, 0, partialExprs, ctx), outMap};
  linalg::GenericOp::create(rewriter, loc, TypeRange{}, ValueRange{partial},
                            ValueRange{out.get()}, maps2,
                            g.getIteratorTypesArray(),
                            getCombinerBodyBuilder(g));
  stage1->emitRemark() << "row reduction split: " << describeRows(c)
                       << " as " << k << " segments of " << s
                       << " each (a partial of " << c.rows * k
                       << " values, combined in segment order by a second "
                          "reduction): "
                       << c.rows << (c.rows == 1 ? " row" : " rows")
                       << " alone cannot give every multiprocessor a block"
                       << (c.readBack
                               ? "; the rows it is read back over are too "
                                 "long for a cluster's registers, so that "
                                 "read-back is a second pass over the input"
                               : "");
  rewriter.eraseOp(g);
  return stage1;
}

/// The buffers `g` reads along its innermost loop.
static SmallVector<Value> getRootsReadAlongRow(linalg::GenericOp g) {
  SmallVector<Value> roots;
  unsigned n = g.getNumLoops();
  for (OpOperand *in : g.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()) &&
        g.getMatchingIndexingMap(in).isFunctionOfDim(n - 1))
      roots.push_back(getViewRoot(in->get()));
  return roots;
}

/// Drops from `work` the candidates that read a buffer along their rows
/// which a reduction over the same rows that stays whole (in `whole`, and
/// those dropped before) also reads: split, the candidate would read it
/// again in a grid of its own, where whole it is one more reduction of the
/// row kernel that reads it anyway (cross entropy's sum of x * t beside
/// the log-sum-exp of x).
static void keepSiblingsWhole(SmallVectorImpl<Candidate> &work,
                              SmallVectorImpl<Candidate> &whole) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto *it = work.begin(); it != work.end(); ++it) {
      SmallVector<Value> mine = getRootsReadAlongRow(it->op);
      Candidate *sibling = nullptr;
      Value shared;
      for (Candidate &w : whole) {
        if (w.op->getBlock() != it->op->getBlock() || w.rows != it->rows ||
            w.length != it->length)
          continue;
        for (Value r : getRootsReadAlongRow(w.op))
          if (llvm::is_contained(mine, r)) {
            sibling = &w;
            shared = r;
            break;
          }
        if (sibling)
          break;
      }
      if (!sibling)
        continue;
      std::string name = "a buffer";
      if (auto arg = dyn_cast<BlockArgument>(shared))
        name = "argument " + std::to_string(arg.getArgNumber());
      InFlightDiagnostic d = it->op.emitRemark();
      d << "row reduction with " << describeRows(*it)
        << " not split: it reads " << name
        << " along its rows, as a reduction over the same rows that is "
           "not split does (one row kernel reads it once)";
      d.attachNote(sibling->op->getLoc()) << "that reduction";
      whole.push_back(*it);
      work.erase(it);
      changed = true;
      break;
    }
  }
}

namespace {
struct MemoptSplitRowReductionsPass final
    : memopt::impl::MemoptSplitRowReductionsPassBase<
          MemoptSplitRowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    MEMOPT_KERNEL_TARGET_INFO(target, func);
    SmallVector<Candidate> work;
    // Row reductions with too few rows that stay whole, with their rows.
    SmallVector<Candidate> whole;
    func.walk([&](linalg::GenericOp g) {
      Candidate c;
      std::string why;
      if (matchCandidate(g, target, c, why)) {
        work.push_back(c);
        return;
      }
      if (!why.empty()) {
        g.emitRemark() << "row reduction with " << describeRows(c)
                       << " not split (" << why
                       << "): its rows alone cannot give every "
                          "multiprocessor a block";
        whole.push_back(c);
      }
    });
    keepSiblingsWhole(work, whole);
    // Stage 1s over the same segments (a sum and a sum of squares of the
    // same rows) are placed one after another: their inputs are arguments
    // nothing writes, so they can move up.
    IRRewriter rewriter(&getContext());
    std::map<std::tuple<Block *, int64_t, int64_t, int64_t>, Operation *>
        lastStage1;
    for (const Candidate &c : work) {
      auto key = std::make_tuple(c.op->getBlock(), c.rows, c.length,
                                 c.segments);
      auto it = lastStage1.find(key);
      linalg::GenericOp s1 =
          split(rewriter, c, it == lastStage1.end() ? nullptr : it->second);
      lastStage1[key] = s1;
    }
  }
};
} // namespace

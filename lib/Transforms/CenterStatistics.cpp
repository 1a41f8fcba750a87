//===- CenterStatistics.cpp - two-pass statistics in one pass -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-center-statistics. Two-pass statistics over
// reduced loops that no reshape makes adjacent (batch-norm training over
// N, H and W of NCHW; a variance over dims 0 and 2),
//
//   s = sum over D of v(x)          m = g(s) (any value per output point)
//   q = sum over D of (v(x) - m)^2,
//
// read x twice: q needs m, which needs all of s. memopt-stage-reductions
// would split each into a pass over the largest reduced loop k and a
// combine. Here both come from one pass over x instead, through Chan's
// combination of partial statistics: per point p of the other loops, the
// pass computes over loop k (K elements)
//
//   s_p = sum v,   q_p = sum (v - s_p / K)^2,   e_p = sum (v - s_p / K)
//
// (one row kernel when k is the contiguous loop, s_p and the two centred
// sums from the row held on chip), and then, over the other reduced loops,
//
//   s = sum s_p,   q = sum [q_p + 2 t e_p + K t^2],  t = s_p / K - m.
//
// The identity sum (v - m)^2 = sum_p [sum_k (v - c_p)^2 + 2 (c_p - m)
// sum_k (v - c_p) + K (c_p - m)^2] holds for every c_p and m, so the
// rewrite computes the program's q for whatever m is (a mean, a running
// mean); e_p keeps it exact where c_p = s_p / K is rounded. Each partial
// sum is centred on its own mean, so the rounding is that of a two-pass
// variance (Chan, Golub and LeVeque), not of the one-pass sum of squares.
//
// First, Welford's recurrence written as one reduction with three outputs
// (count, mean, M2: each step's mean and M2 read the others' accumulators,
// so no kernel can split it) becomes, where all three start at zero, what
// it computes: the count K (the reduced extent), the mean sum(v) / K and
// M2 = sum (v - mean)^2, the two-pass form the row family holds in one
// kernel (and the combine above splits where the loops are not adjacent).
// Two-pass statistics are at least as accurate as the recurrence.
//
// It reassociates the sums, so the optimizing pipeline only; a remark says
// what was combined.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/Grouping.h"
#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTCENTERSTATISTICSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Whether `a` and `b` hold the same data: the same value, or results of
/// equivalent pure ops of such values (memopt-collapse-reduction-dims gives
/// each reduction its own collapse_shape of one argument).
static bool isSameTensor(Value a, Value b) {
  if (a == b)
    return true;
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  // (Reading something: two tensor.empty results hold no data.)
  return da && db && da->getNumOperands() > 0 && isPure(da) && isPure(db) &&
         OperationEquivalence::isEquivalentTo(
             da, db,
             [](Value x, Value y) { return success(isSameTensor(x, y)); },
             /*markEquivalent=*/nullptr,
             OperationEquivalence::IgnoreLocations);
}

/// Whether `t` is a fill of floating-point zero.
static bool isZeroFill(Value t) {
  auto f = dyn_cast_or_null<FloatAttr>(getFillConstant(t));
  return f && f.getValue().isZero();
}

/// The summand `v` of `yield addf(acc, v)` (either order) in `op`'s body,
/// with `v` not computed from the accumulator, or null.
static Value getSummand(linalg::GenericOp op) {
  Block *body = op.getBody();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs());
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body || !acc.hasOneUse())
    return Value();
  Value v = add.getLhs() == acc ? add.getRhs()
            : add.getRhs() == acc ? add.getLhs()
                                  : Value();
  if (!v || isComputedFrom(v, acc, op))
    return Value();
  return v;
}

/// Clones into `b` the ops of `body` that compute `v` from its arguments,
/// the first `args.size()` arguments mapped to `args`; returns v's clone.
static Value cloneBodyValue(OpBuilder &b, Value v, Block *body,
                            ValueRange args) {
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<BlockArgument> used;
  collectBodySlice(v, body, ops, used);
  IRMapping map;
  for (auto [arg, value] : llvm::zip(body->getArguments(), args))
    map.map(arg, value);
  for (Operation *o : ops)
    b.clone(*o, map);
  return map.lookupOrDefault(v);
}

namespace {
/// A sum `sum` of v(x) and the centred sum of squares `sq` of the same
/// v(x) about `m` (sq's second input), over the same scattered loops.
struct Statistics {
  linalg::GenericOp sum, sq;
  /// v in sq's body: the operand of the square's subtraction from x (v - m
  /// or m - v: the square is the same).
  Value v;
};
} // namespace

/// Matches `sq` as the centred sum of squares of an earlier sum in its
/// block, or fails with a reason (empty when `sq` is no such op at all).
static FailureOr<Statistics> matchStatistics(linalg::GenericOp sq,
                                             std::string &why) {
  why.clear();
  if (!sq.hasPureTensorSemantics() || sq.getNumDpsInputs() != 2 ||
      sq.getNumDpsInits() != 1)
    return failure();
  Value d2 = getSummand(sq);
  auto mul = d2 ? d2.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul || mul.getLhs() != mul.getRhs())
    return failure();
  auto sub = mul.getLhs().getDefiningOp<arith::SubFOp>();
  Block *body = sq.getBody();
  BlockArgument xArg = body->getArgument(0), mArg = body->getArgument(1);
  if (!sub || sub->getBlock() != body)
    return failure();
  Statistics st;
  st.sq = sq;
  if (sub.getRhs() == mArg)
    st.v = sub.getLhs();
  else if (sub.getLhs() == mArg)
    st.v = sub.getRhs();
  else
    return failure();
  if (isComputedFrom(st.v, mArg, sq) || !isComputedFrom(st.v, xArg, sq))
    return failure();
  // Reduced loops that no reshape makes adjacent (those memopt-stage-
  // reductions would split: x read once per statistic).
  SmallVector<unsigned> red;
  for (auto [i, it] : llvm::enumerate(sq.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      red.push_back(i);
  if (red.size() < 2 || red.back() - red.front() + 1 == red.size())
    return failure();
  Type acc = body->getArgument(2).getType();
  if (!acc.isF32() && !acc.isF64()) {
    why = "the accumulator is not f32 or f64";
    return failure();
  }
  AffineMap xMap = sq.getIndexingMapsArray()[0];
  AffineMap mMap = sq.getIndexingMapsArray()[1];
  AffineMap outMap = sq.getIndexingMapsArray()[2];
  if (!xMap.isProjectedPermutation() || mMap != outMap ||
      llvm::any_of(outMap.getResults(), [&](AffineExpr e) {
        auto d = dyn_cast<AffineDimExpr>(e);
        return !d || llvm::is_contained(red, d.getPosition());
      })) {
    why = "its mean is not indexed like its output, by parallel loops";
    return failure();
  }
  if (!isZeroFill(sq.getDpsInits()[0])) {
    why = "its initial value is not a fill of zero";
    return failure();
  }
  Value x = sq.getDpsInputs()[0];
  // The sum: an earlier reduction of the same v(x) over the same loops.
  for (Operation *o = sq->getPrevNode(); o; o = o->getPrevNode()) {
    auto s = dyn_cast<linalg::GenericOp>(o);
    if (!s || !s.hasPureTensorSemantics() || s.getNumDpsInputs() != 1 ||
        s.getNumDpsInits() != 1 ||
        s.getIteratorTypesArray() != sq.getIteratorTypesArray() ||
        s.getStaticLoopRanges() != sq.getStaticLoopRanges() ||
        s.getIndexingMapsArray()[0] != xMap ||
        s.getIndexingMapsArray()[1] != outMap ||
        !isSameTensor(s.getDpsInputs()[0], x) ||
        !isZeroFill(s.getDpsInits()[0]))
      continue;
    Value v1 = getSummand(s);
    if (!v1 || !isSameBodyValue(v1, s, st.v, sq, [](OpOperand &, OpOperand &) {
          return true; // both x: checked above
        }))
      continue;
    st.sum = s;
    return st;
  }
  why = "no sum of the same values over the same loops precedes it";
  return failure();
}

/// A generic over `ranges` with the given maps and iterator types, whose
/// body is built by `body` from the block arguments.
static linalg::GenericOp
createGeneric(OpBuilder &b, Location loc, ValueRange ins, Value init,
              ArrayRef<AffineMap> maps,
              ArrayRef<utils::IteratorType> iters,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  return linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, body(nb, nl, args));
      });
}

/// The reduced loop of `g` of largest extent (memopt-stage-reductions'
/// first stage).
static unsigned getLargestReducedLoop(linalg::GenericOp g) {
  SmallVector<int64_t> ranges = g.getStaticLoopRanges();
  auto iters = g.getIteratorTypesArray();
  unsigned k = ranges.size();
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (iters[i] == utils::IteratorType::reduction &&
        (k == ranges.size() || ranges[i] > ranges[k]))
      k = i;
  return k;
}

/// `g` over loop `k` split into (K / S, S): x (its first input, whose map
/// reads loop k at one result) through a tensor.expand_shape `xs` of that
/// dim, every other map renumbered, the body as it is.
static linalg::GenericOp splitLoop(RewriterBase &rewriter, linalg::GenericOp g,
                                   unsigned k, Value xs) {
  MLIRContext *ctx = g.getContext();
  unsigned n = g.getNumLoops();
  auto shift = [&](AffineMap m) {
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : m.getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      exprs.push_back(getAffineDimExpr(d > k ? d + 1 : d, ctx));
      if (d == k)
        exprs.push_back(getAffineDimExpr(k + 1, ctx));
    }
    return AffineMap::get(n + 1, 0, exprs, ctx);
  };
  SmallVector<AffineMap> maps;
  for (AffineMap m : g.getIndexingMapsArray())
    maps.push_back(shift(m));
  SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
  iters.insert(iters.begin() + k + 1, utils::IteratorType::reduction);
  SmallVector<Value> ins(g.getDpsInputs());
  ins[0] = xs;
  auto split = linalg::GenericOp::create(rewriter, g.getLoc(),
                                         g.getResultTypes(), ins,
                                         g.getDpsInits(), maps, iters);
  rewriter.cloneRegionBefore(g.getRegion(), split.getRegion(),
                             split.getRegion().begin());
  rewriter.replaceOp(g, split.getResults());
  return split;
}

/// Where loop k is not x's contiguous dim (the partials interleave rows
/// side by side, each held on chip: group norm NHWC reduces H*W = 4096 per
/// group channel) and longer than 1024, k is split into segments of the
/// largest divisor of K in [256, 1024] and the partials are taken per
/// segment (Chan's combination holds for any partition): blocks then hold
/// a segment each instead of clusters holding whole rows. Returns the loop
/// to reduce first.
static unsigned segmentLongStridedLoop(RewriterBase &rewriter,
                                       Statistics &st) {
  linalg::GenericOp sum = st.sum;
  unsigned k = getLargestReducedLoop(sum);
  int64_t extent = sum.getStaticLoopRanges()[k];
  AffineMap xMap = sum.getIndexingMapsArray()[0];
  std::optional<unsigned> pos = xMap.getResultPosition(
      getAffineDimExpr(k, sum.getContext()));
  if (!pos || *pos + 1 == xMap.getNumResults() || extent <= 1024)
    return k;
  int64_t segment = 0;
  for (int64_t s = 1024; s >= 256 && segment == 0; --s)
    if (extent % s == 0)
      segment = s;
  if (segment == 0)
    return k;
  rewriter.setInsertionPoint(sum);
  Value xs =
      expandDim(rewriter, sum.getLoc(), sum.getDpsInputs()[0], *pos, segment);
  st.sum = splitLoop(rewriter, sum, k, xs);
  rewriter.setInsertionPoint(st.sq);
  st.sq = splitLoop(rewriter, st.sq, k, xs);
  // (st.v lives in sq's body, now moved to the split op.)
  st.v = Value();
  return k + 1;
}

/// Rewrites the matched statistics (see the file comment).
static LogicalResult centerStatistics(RewriterBase &rewriter,
                                      Statistics &st) {
  unsigned k = segmentLongStridedLoop(rewriter, st);
  if (!st.v) {
    // Split: the same statistics over the split loops.
    std::string why;
    FailureOr<Statistics> split = matchStatistics(st.sq, why);
    if (failed(split) || split->sum != st.sum)
      return st.sq.emitError("memopt-center-statistics: the statistics lost "
                             "their form when their loop was split");
    st = *split;
  }
  linalg::GenericOp sum = st.sum, sq = st.sq;
  Location loc = sq.getLoc();
  MLIRContext *ctx = sq.getContext();
  SmallVector<int64_t> ranges = sq.getStaticLoopRanges();
  unsigned n = ranges.size();
  Type acc = sq.getBody()->getArgument(2).getType();
  // The original fills, erased at the end where the copies replace them.
  llvm::SetVector<Operation *> fills;
  for (Value init : {sum.getDpsInits()[0], sq.getDpsInits()[0]})
    if (Operation *fill = init.getDefiningOp(); fill && getFillConstant(init))
      fills.insert(fill);
  // (sum's x: the same data as sq's, defined before the sum.)
  Value x = sum.getDpsInputs()[0];
  AffineMap xMap = sq.getIndexingMapsArray()[0];
  AffineMap outMap = sq.getIndexingMapsArray()[2];
  LoopPartial partial = getLoopPartial(sq, k);
  AffineMap pMap = partial.map;
  SmallVector<utils::IteratorType> iters1(n, utils::IteratorType::parallel);
  iters1[k] = utils::IteratorType::reduction;
  // Before the sum: x and every partial's inputs are defined there.
  rewriter.setInsertionPoint(sum);
  Value zero = arith::ConstantOp::create(rewriter, loc, acc,
                                         rewriter.getFloatAttr(acc, 0.0));
  Value kConst = arith::ConstantOp::create(
      rewriter, loc, acc, rewriter.getFloatAttr(acc, (double)ranges[k]));
  auto newPartial = [&] {
    return createFillGeneric(
        rewriter, loc, zero,
        tensor::EmptyOp::create(rewriter, loc, partial.shape, acc));
  };
  // v(x) in a new body: the ops of sq's body that compute st.v (from its
  // first argument alone), with x's element for that argument.
  auto cloneV = [&](OpBuilder &b, Value xElem) -> Value {
    return cloneBodyValue(b, st.v, sq.getBody(), ValueRange{xElem});
  };
  // s_p: sum's own body over loop k alone.
  SmallVector<AffineMap> sMaps = {xMap, pMap};
  Value sInit = newPartial();
  auto sP = linalg::GenericOp::create(
      rewriter, loc, TypeRange{sInit.getType()},
      ValueRange{x}, ValueRange{sInit}, sMaps, iters1);
  rewriter.cloneRegionBefore(sum.getRegion(), sP.getRegion(),
                             sP.getRegion().begin());
  Value sPart = sP.getResult(0);
  // q_p and e_p: sums over loop k of (v - s_p / K)^2 and of (v - s_p / K).
  SmallVector<AffineMap> cMaps = {xMap, pMap, pMap};
  auto centred = [&](bool squared) {
    return createGeneric(
        rewriter, loc, ValueRange{x, sPart}, newPartial(), cMaps, iters1,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value v = cloneV(b, args[0]);
          Value c = arith::DivFOp::create(b, l, args[1], kConst);
          Value d = arith::SubFOp::create(b, l, v, c);
          if (squared)
            d = arith::MulFOp::create(b, l, d, d);
          return arith::AddFOp::create(b, l, args[2], d);
        });
  };
  Value qPart = centred(true).getResult(0);
  Value ePart = centred(false).getResult(0);
  // The combines over the other reduced loops, in the partials' loops.
  ArrayRef<utils::IteratorType> iters2 = partial.restIterators;
  AffineMap id2 = AffineMap::getMultiDimIdentityMap(n - 1, ctx);
  AffineMap out2 = partial.dropLoop(outMap);
  // Each combine seeded by its own copy of its fill, just before it
  // (kernel formation folds a fill there into the reduction).
  auto freshInit = [&](Value init) -> Value {
    if (!getFillConstant(init))
      return init;
    return rewriter.clone(*init.getDefiningOp())->getResult(0);
  };
  auto sTotal = createGeneric(
      rewriter, loc, ValueRange{sPart}, freshInit(sum.getDpsInits()[0]),
      {id2, out2},
      iters2, [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::AddFOp::create(b, l, args[1], args[0]);
      });
  rewriter.replaceOp(sum, sTotal.getResults());
  // q: before sq (its mean is defined by then).
  rewriter.setInsertionPoint(sq);
  auto qTotal = createGeneric(
      rewriter, loc,
      ValueRange{qPart, ePart, sPart, sq.getDpsInputs()[1]},
      freshInit(sq.getDpsInits()[0]), {id2, id2, id2, out2, out2}, iters2,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        // q_p + t (2 e_p + K t), t = s_p / K - m.
        Value c = arith::DivFOp::create(b, l, args[2], kConst);
        Value t = arith::SubFOp::create(b, l, c, args[3]);
        Value e2 = arith::AddFOp::create(b, l, args[1], args[1]);
        Value kt = arith::MulFOp::create(b, l, kConst, t);
        Value w = arith::MulFOp::create(b, l, t,
                                        arith::AddFOp::create(b, l, e2, kt));
        Value term = arith::AddFOp::create(b, l, args[0], w);
        return arith::AddFOp::create(b, l, args[4], term);
      });
  sq.emitRemark() << "two-pass statistics over non-adjacent loops in one "
                     "pass: sums and centred sums of squares per point of "
                     "loop "
                  << k << " (" << ranges[k]
                  << " elements), combined over the other reduced loops "
                     "(Chan's formula)";
  rewriter.replaceOp(sq, qTotal.getResults());
  for (Operation *fill : fills)
    if (fill->use_empty())
      rewriter.eraseOp(fill);
  return success();
}

namespace {
/// Welford's recurrence (count, mean, M2 outputs of one reduction).
struct Welford {
  unsigned count, mean, m2;
  /// The new value `v` in the body (computed from the inputs alone).
  Value v;
};
} // namespace

/// `x + y` (either order) with `x` = `a`: `y`, or null.
static Value getOtherAddend(Value sum, Value a) {
  auto add = sum.getDefiningOp<arith::AddFOp>();
  if (!add)
    return Value();
  return add.getLhs() == a ? add.getRhs()
         : add.getRhs() == a ? add.getLhs()
                             : Value();
}

/// Matches `op`'s body as Welford's update
///   c' = c + 1; d = v - mean; mean' = mean + d / c';
///   M2' = M2 + d * (v - mean')
/// (operands of the additions and the product in either order).
static std::optional<Welford> matchWelford(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 3 ||
      op.getNumReductionLoops() < 1)
    return std::nullopt;
  Block *body = op.getBody();
  unsigned nIn = op.getNumDpsInputs();
  auto yields = body->getTerminator()->getOperands();
  for (unsigned c = 0; c < 3; ++c) {
    BlockArgument cnt = body->getArgument(nIn + c);
    // c' = c + 1.
    Value one = getOtherAddend(yields[c], cnt);
    if (!one || !matchPattern(one, m_OneFloat()))
      continue;
    for (unsigned m = 0; m < 3; ++m) {
      if (m == c)
        continue;
      unsigned q = 3 - c - m;
      BlockArgument mean = body->getArgument(nIn + m),
                    m2 = body->getArgument(nIn + q);
      // mean' = mean + d / c'.
      Value step = getOtherAddend(yields[m], mean);
      auto div = step ? step.getDefiningOp<arith::DivFOp>() : arith::DivFOp();
      if (!div || div.getRhs() != yields[c])
        continue;
      auto d = div.getLhs().getDefiningOp<arith::SubFOp>();
      if (!d || d.getRhs() != mean)
        continue;
      Value v = d.getLhs();
      // M2' = M2 + d * (v - mean').
      Value prod = getOtherAddend(yields[q], m2);
      auto mul = prod ? prod.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
      if (!mul)
        continue;
      Value other = mul.getLhs() == d.getResult()   ? mul.getRhs()
                    : mul.getRhs() == d.getResult() ? mul.getLhs()
                                                    : Value();
      auto d2 = other ? other.getDefiningOp<arith::SubFOp>() : arith::SubFOp();
      if (!d2 || d2.getLhs() != v || d2.getRhs() != yields[m])
        continue;
      // v from the inputs alone.
      if (llvm::any_of(body->getArguments().drop_front(nIn),
                       [&](BlockArgument acc) {
                         return isComputedFrom(v, acc, op);
                       }))
        return std::nullopt;
      return Welford{c, m, q, v};
    }
  }
  return std::nullopt;
}

/// Rewrites a matched Welford reduction into the count, the sum's mean and
/// the centred sum of squares, or fails with a reason (nothing changed).
static LogicalResult rewriteWelford(RewriterBase &rewriter,
                                    linalg::GenericOp op, const Welford &w,
                                    std::string &why) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned nIn = op.getNumDpsInputs();
  AffineMap outMap = maps[nIn];
  Type acc = op.getBody()->getArgument(nIn).getType();
  if (!acc.isF32() && !acc.isF64()) {
    why = "the accumulators are not f32 or f64";
    return failure();
  }
  for (unsigned i = 0; i < 3; ++i)
    if (maps[nIn + i] != outMap ||
        op.getBody()->getArgument(nIn + i).getType() != acc ||
        !isZeroFill(op.getDpsInits()[i])) {
      why = "its outputs do not all start at zero with one map and type";
      return failure();
    }
  if (!outMap.isProjectedPermutation()) {
    why = "its outputs are not indexed by loops alone";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t k = 1;
  for (auto [r, it] : llvm::zip(ranges, op.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      k *= r;
  if (ShapedType::isDynamicShape(ranges) || k > (int64_t(1) << 24)) {
    why = "its reduced extent is dynamic or above 2^24 (the count in f32)";
    return failure();
  }
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  rewriter.setInsertionPoint(op);
  auto outType = cast<RankedTensorType>(op.getResultTypes()[0]);
  Value zero = arith::ConstantOp::create(rewriter, loc, acc,
                                         rewriter.getFloatAttr(acc, 0.0));
  Value kConst = arith::ConstantOp::create(
      rewriter, loc, acc, rewriter.getFloatAttr(acc, (double)k));
  auto newTensor = [&] {
    return tensor::EmptyOp::create(rewriter, loc, outType.getShape(), acc);
  };
  // v in a new body whose first nIn arguments are op's inputs'.
  auto cloneV = [&](OpBuilder &b, ValueRange args) -> Value {
    return cloneBodyValue(b, w.v, op.getBody(), args.take_front(nIn));
  };
  SmallVector<AffineMap> sumMaps(maps.begin(), maps.begin() + nIn);
  sumMaps.push_back(outMap);
  auto sum = createGeneric(
      rewriter, loc, op.getDpsInputs(),
      createFillGeneric(rewriter, loc, zero, newTensor()), sumMaps,
      op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::AddFOp::create(b, l, args[nIn], cloneV(b, args));
      });
  AffineMap id = AffineMap::getMultiDimIdentityMap(outType.getRank(), ctx);
  SmallVector<utils::IteratorType> par(outType.getRank(),
                                       utils::IteratorType::parallel);
  auto mean = createGeneric(
      rewriter, loc, ValueRange{sum.getResult(0)}, newTensor(), {id, id}, par,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(b, l, args[0], kConst);
      });
  SmallVector<Value> sqIns(op.getDpsInputs());
  sqIns.push_back(mean.getResult(0));
  SmallVector<AffineMap> sqMaps(maps.begin(), maps.begin() + nIn);
  sqMaps.push_back(outMap);
  sqMaps.push_back(outMap);
  auto sq = createGeneric(
      rewriter, loc, sqIns, createFillGeneric(rewriter, loc, zero, newTensor()),
      sqMaps, op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value d = arith::SubFOp::create(b, l, cloneV(b, args), args[nIn]);
        return arith::AddFOp::create(b, l, args[nIn + 1],
                                     arith::MulFOp::create(b, l, d, d));
      });
  Value count = createFillGeneric(rewriter, loc, kConst, newTensor());
  SmallVector<Value> results(3);
  results[w.count] = count;
  results[w.mean] = mean.getResult(0);
  results[w.m2] = sq.getResult(0);
  op.emitRemark() << "Welford's recurrence over " << k
                  << " elements computed as its count, the mean of a sum "
                     "and a centred sum of squares";
  rewriter.replaceOp(op, results);
  return success();
}

namespace {
struct MemoptCenterStatisticsPass
    : public memopt::impl::MemoptCenterStatisticsPassBase<
          MemoptCenterStatisticsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<std::pair<linalg::GenericOp, Welford>> recurrences;
    getOperation().walk([&](linalg::GenericOp g) {
      if (std::optional<Welford> w = matchWelford(g))
        recurrences.push_back({g, *w});
    });
    for (auto &[g, w] : recurrences) {
      std::string why;
      if (failed(rewriteWelford(rewriter, g, w, why)))
        g.emitRemark("Welford's recurrence kept (a naive kernel): ") << why;
    }
    SmallVector<Statistics> work;
    getOperation().walk([&](linalg::GenericOp g) {
      std::string why;
      FailureOr<Statistics> st = matchStatistics(g, why);
      if (succeeded(st))
        work.push_back(*st);
      else if (!why.empty())
        g.emitRemark("centred sum of squares over non-adjacent loops read "
                     "in a pass of its own: ")
            << why;
    });
    // A sum feeds one rewrite (a second would find it replaced): the one
    // whose centre is computed from it (its mean) first.
    auto centredOnItsSum = [](Statistics st) {
      Value m = st.sq.getDpsInputs()[1];
      auto g = m.getDefiningOp<linalg::GenericOp>();
      return g && llvm::is_contained(g.getDpsInputs(), st.sum.getResult(0));
    };
    llvm::stable_sort(work, [&](Statistics a, Statistics b) {
      return centredOnItsSum(a) && !centredOnItsSum(b);
    });
    DenseSet<Operation *> used;
    for (Statistics &st : work) {
      if (!used.insert(st.sum).second) {
        st.sq.emitRemark("centred sum of squares over non-adjacent loops "
                         "read in a pass of its own: its sum is combined "
                         "with another centred sum");
        continue;
      }
      if (failed(centerStatistics(rewriter, st)))
        return signalPassFailure();
    }
  }
};
} // namespace

//===- ArgReductions.cpp - arg-max/min as one-combiner reductions -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-arg-reductions: a two-output reduction whose
// second output is the index of the element that last set the first (the
// arg-max and arg-min forms of torch-mlir, tosa-to-linalg and StableHLO
// lowerings) becomes reductions with one associative combiner each, which
// kernel formation turns into row or column kernels; as one op with
// dependent outputs it was a naive kernel walking each row in one thread.
//
// For `x_j` the compared element, `v0`/`i0` the constant initial value and
// index and `beats` the strict order of the compare (x_j > v for ogt):
//
//   E   = the extreme of v0 and every x_j (NaN ignored)
//   Q   = min { j : x_j == E }                       (i32 candidates)
//   idx = beats(E, v0) ? Q : i0
//
// is what the sequential loop computes when the value is updated by a
// select on the same compare (an ordered compare never lets a NaN win) or
// by maxnum/minnum. Where the value is updated by maximumf/minimumf, a NaN
// makes the value NaN and stops every later update of the index: then P =
// min { j : x_j is NaN } is reduced first and E only takes the elements
// before P. tosa's NaN propagation (`x >u acc && acc is ordered`) lets the
// first NaN win and stay: P and E are independent there, and the index is
// P where the row has a NaN. The value output keeps its own reduction
// (maximumf, maxnum: associative and commutative), or, for the select form
// of floats, is the element at Q (or P), picked exactly through its bits
// (an or-reduction of zero-extended bit patterns), or v0 where nothing beat
// v0.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTARGREDUCTIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// The i32 candidate of no position (no NaN, no element equal to E).
static constexpr int32_t kNoIndex = std::numeric_limits<int32_t>::max();

namespace {
/// How the value output of an arg reduction is updated.
enum class ValueUpdate { Select, PropagateNaN, IgnoreNaN, Integer };

/// A matched arg reduction.
struct ArgForm {
  unsigned valueOut = 0, indexOut = 1;
  /// The compared element in the body (computed from the inputs alone),
  /// and the body ops computing it, in order.
  Value x;
  llvm::SetVector<Operation *> xOps;
  /// Whether the order is `>` (max) rather than `<` (min).
  bool greater = true;
  /// Integer compares: whether unsigned.
  bool isUnsigned = false;
  ValueUpdate update = ValueUpdate::Select;
  /// tosa's NaN propagation: `(x >u acc) && acc is ordered`, so the first
  /// NaN wins and nothing updates after it.
  bool nanWins = false;
  unsigned redDim = 0;
  TypedAttr v0, i0;
};
} // namespace

/// Whether `v` is `linalg.index redDim`, possibly cast to an integer type.
static bool isLoopIndex(Value v, unsigned redDim) {
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  auto idx = v.getDefiningOp<linalg::IndexOp>();
  return idx && idx.getDim() == redDim;
}

/// Matches `g` as an arg reduction, or says why not (empty `why`: not an
/// arg reduction at all, no remark).
static FailureOr<ArgForm> matchArgReduction(linalg::GenericOp g,
                                            std::string &why) {
  ArgForm form;
  if (g.getNumDpsInits() != 2 || g.getNumReductionLoops() != 1 ||
      !g.hasPureTensorSemantics())
    return failure();
  Block *body = g.getBody();
  unsigned numIn = g.getNumDpsInputs();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  for (auto [k, it] : llvm::enumerate(g.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      form.redDim = k;
  // The index output: select(c, index, its own accumulator).
  arith::SelectOp indexSel;
  for (unsigned k = 0; k < 2; ++k) {
    auto sel = yield.getOperand(k).getDefiningOp<arith::SelectOp>();
    if (sel && sel.getFalseValue() == body->getArgument(numIn + k) &&
        isLoopIndex(sel.getTrueValue(), form.redDim)) {
      form.indexOut = k;
      form.valueOut = 1 - k;
      indexSel = sel;
    }
  }
  if (!indexSel)
    return failure();
  BlockArgument accV = body->getArgument(numIn + form.valueOut);
  BlockArgument accI = body->getArgument(numIn + form.indexOut);
  Operation *cmp = indexSel.getCondition().getDefiningOp();
  if (!cmp || cmp->getNumOperands() != 2)
    return failure();
  // tosa's NaN propagation: andi(cmpf ugt/ult, cmpf ord(accV, accV)).
  if (isa<arith::AndIOp>(cmp)) {
    for (unsigned k = 0; k < 2; ++k) {
      auto ord = cmp->getOperand(k).getDefiningOp<arith::CmpFOp>();
      auto order = cmp->getOperand(1 - k).getDefiningOp<arith::CmpFOp>();
      if (ord && order && ord.getPredicate() == arith::CmpFPredicate::ORD &&
          ord.getLhs() == accV && ord.getRhs() == accV &&
          (order.getPredicate() == arith::CmpFPredicate::UGT ||
           order.getPredicate() == arith::CmpFPredicate::ULT)) {
        form.nanWins = true;
        cmp = order;
        break;
      }
    }
    if (!form.nanWins)
      return failure();
  }
  // cmp(x, accV) or cmp(accV, x), with a strict order.
  bool swapped = cmp->getOperand(1) != accV;
  if (swapped && cmp->getOperand(0) != accV)
    return failure();
  form.x = cmp->getOperand(swapped ? 1 : 0);
  bool isFloat = isa<FloatType>(form.x.getType());
  if (auto f = dyn_cast<arith::CmpFOp>(cmp)) {
    switch (f.getPredicate()) {
    case arith::CmpFPredicate::OGT:
    case arith::CmpFPredicate::UGT:
      form.greater = true;
      break;
    case arith::CmpFPredicate::OLT:
    case arith::CmpFPredicate::ULT:
      form.greater = false;
      break;
    default:
      why = "its compare is not a strict order (ogt, olt; ugt, ult under an "
            "ordered accumulator)";
      return failure();
    }
    bool unordered = f.getPredicate() == arith::CmpFPredicate::UGT ||
                     f.getPredicate() == arith::CmpFPredicate::ULT;
    if (unordered && !form.nanWins) {
      why = "its unordered compare is not guarded by an ordered accumulator";
      return failure();
    }
    if (!unordered && form.nanWins) {
      why = "its ordered-accumulator guard goes with an ordered compare";
      return failure();
    }
  } else if (auto i = dyn_cast<arith::CmpIOp>(cmp)) {
    switch (i.getPredicate()) {
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::ugt:
      form.greater = true;
      break;
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::ult:
      form.greater = false;
      break;
    default:
      why = "its compare is not a strict order (sgt, slt, ugt, ult)";
      return failure();
    }
    form.isUnsigned = i.getPredicate() == arith::CmpIPredicate::ugt ||
                      i.getPredicate() == arith::CmpIPredicate::ult;
  } else {
    return failure();
  }
  if (swapped)
    form.greater = !form.greater;
  // The value output's update.
  Operation *upd = yield.getOperand(form.valueOut).getDefiningOp();
  auto isPair = [&](Operation *op) {
    return op && op->getNumOperands() == 2 &&
           ((op->getOperand(0) == form.x && op->getOperand(1) == accV) ||
            (op->getOperand(1) == form.x && op->getOperand(0) == accV));
  };
  if (auto sel = dyn_cast_or_null<arith::SelectOp>(upd);
      sel && sel.getCondition() == indexSel.getCondition() &&
      sel.getTrueValue() == form.x && sel.getFalseValue() == accV) {
    form.update = isFloat ? ValueUpdate::Select : ValueUpdate::Integer;
  } else if (isPair(upd) && isFloat &&
             (form.greater ? isa<arith::MaximumFOp>(upd)
                           : isa<arith::MinimumFOp>(upd))) {
    form.update = ValueUpdate::PropagateNaN;
  } else if (isPair(upd) && isFloat &&
             (form.greater ? isa<arith::MaxNumFOp>(upd)
                           : isa<arith::MinNumFOp>(upd))) {
    form.update = ValueUpdate::IgnoreNaN;
  } else if (isPair(upd) && !isFloat &&
             (form.isUnsigned
                  ? (form.greater ? isa<arith::MaxUIOp>(upd)
                                  : isa<arith::MinUIOp>(upd))
                  : (form.greater ? isa<arith::MaxSIOp>(upd)
                                  : isa<arith::MinSIOp>(upd)))) {
    form.update = ValueUpdate::Integer;
  } else {
    why = "its value is not updated by a select on the index's compare or "
          "by the max/min of that order";
    return failure();
  }
  if (form.nanWins && form.update == ValueUpdate::IgnoreNaN) {
    // maxnum keeps the value ordered after a NaN: the index moves again.
    why = "its first NaN wins the index but not the value (maxnum/minnum)";
    return failure();
  }
  // The accumulators feed only the compare and the updates; the element
  // is computed from the inputs alone.
  Operation *guard = form.nanWins
                         ? indexSel.getCondition().getDefiningOp()
                         : nullptr;
  for (Operation *user : accV.getUsers())
    if (user != cmp && user != upd &&
        !(guard && isa<arith::CmpFOp>(user) &&
          llvm::is_contained(guard->getOperands(), user->getResult(0)))) {
      why = "the value's accumulator has other uses";
      return failure();
    }
  if (!accI.hasOneUse()) {
    why = "the index's accumulator has other uses";
    return failure();
  }
  llvm::SetVector<BlockArgument> args;
  collectBodySlice(form.x, body, form.xOps, args);
  if (llvm::any_of(args, [&](BlockArgument a) {
        return a.getArgNumber() >= numIn;
      })) {
    why = "the compared element reads an accumulator";
    return failure();
  }
  // Types: 16- and 32-bit floats, integers up to 32 bits; an i32 or i64
  // index.
  Type xt = form.x.getType();
  if (!(xt.isF32() || xt.isF16() || xt.isBF16() ||
        (xt.isInteger() && xt.getIntOrFloatBitWidth() <= 32 &&
         xt.getIntOrFloatBitWidth() > 1))) {
    why = "its values are not f16, bf16, f32 or integers of 8 to 32 bits";
    return failure();
  }
  if (accV.getType() != xt) {
    why = "its value output's type differs from the compared element's";
    return failure();
  }
  Type it = accI.getType();
  if (!it.isInteger(32) && !it.isInteger(64)) {
    why = "its index output is not i32 or i64";
    return failure();
  }
  // Both outputs over the same map, from constant fills.
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (maps[numIn] != maps[numIn + 1]) {
    why = "its two outputs are indexed differently";
    return failure();
  }
  if (g.hasDynamicShape()) {
    why = "its shapes are not static";
    return failure();
  }
  if (g.getStaticLoopRanges()[form.redDim] >= kNoIndex) {
    why = "its reduced extent is not below 2^31 - 1";
    return failure();
  }
  form.v0 = dyn_cast_or_null<TypedAttr>(
      getFillConstant(g.getDpsInits()[form.valueOut]));
  form.i0 = dyn_cast_or_null<TypedAttr>(
      getFillConstant(g.getDpsInits()[form.indexOut]));
  if (!form.v0 || !form.i0) {
    why = "its initial value or index is not a constant fill";
    return failure();
  }
  if (auto f = dyn_cast<FloatAttr>(form.v0); f && f.getValue().isNaN()) {
    why = "its initial value is NaN";
    return failure();
  }
  return form;
}

namespace {
/// Builds the reductions of one matched arg reduction.
class ArgBuilder {
public:
  ArgBuilder(RewriterBase &rw, linalg::GenericOp g, const ArgForm &form)
      : rw(rw), g(g), form(form), loc(g.getLoc()) {
    numIn = g.getNumDpsInputs();
    maps = g.getIndexingMapsArray();
    outMap = maps[numIn];
    auto outType = cast<RankedTensorType>(g.getResultTypes()[0]);
    outShape = llvm::to_vector(outType.getShape());
    xType = form.x.getType();
    wide = xType;
    if (!isa<FloatType>(xType) && xType.getIntOrFloatBitWidth() < 32)
      wide = rw.getI32Type();
  }

  /// A tensor of the output shape filled with `value`.
  Value filled(TypedAttr value) {
    auto empty =
        tensor::EmptyOp::create(rw, loc, outShape, value.getType());
    Value c = arith::ConstantOp::create(rw, loc, value);
    auto fill = linalg::FillOp::create(rw, loc, c, empty.getResult());
    FailureOr<linalg::GenericOp> gen = linalg::generalizeNamedOp(
        rw, cast<linalg::LinalgOp>(fill.getOperation()));
    return (*gen)->getResult(0);
  }

  /// A reduction over the original loops: `combine(acc, f(x, j, scalars))`
  /// with the original inputs and `scalars` (row values over the output
  /// map) as inputs, into a fill of `init`.
  Value reduce(TypedAttr init, ValueRange scalars,
               function_ref<Value(OpBuilder &, Location, Value x, Value j,
                                  ValueRange scalars, Value acc)>
                   body) {
    SmallVector<Value> ins(g.getDpsInputs());
    llvm::append_range(ins, scalars);
    SmallVector<AffineMap> newMaps(maps.begin(), maps.begin() + numIn);
    newMaps.append(scalars.size() + 1, outMap);
    Value out = filled(init);
    Block *old = g.getBody();
    auto gen = linalg::GenericOp::create(
        rw, loc, TypeRange{out.getType()}, ins, ValueRange{out}, newMaps,
        g.getIteratorTypesArray(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping m;
          for (unsigned i = 0; i < numIn; ++i)
            m.map(old->getArgument(i), args[i]);
          for (Operation *op : form.xOps)
            b.clone(*op, m);
          Value x = widen(b, l, m.lookupOrDefault(form.x));
          Value j = linalg::IndexOp::create(b, l, form.redDim);
          j = arith::IndexCastOp::create(b, l, b.getI32Type(), j);
          Value r = body(b, l, x, j, args.slice(numIn, scalars.size()),
                         args.back());
          linalg::YieldOp::create(b, l, r);
        });
    return gen.getResult(0);
  }

  /// An elementwise op over the output space.
  Value pointwise(Type resultType, ValueRange ins,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
    auto empty = tensor::EmptyOp::create(rw, loc, outShape, resultType);
    unsigned rank = outShape.size();
    AffineMap id = rw.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> newMaps(ins.size() + 1, id);
    auto gen = linalg::GenericOp::create(
        rw, loc, TypeRange{empty.getType()}, ins, ValueRange{empty}, newMaps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, body(b, l, args.drop_back()));
        });
    return gen.getResult(0);
  }

  /// The element widened for the comparisons (integers to 32 bits).
  Value widen(OpBuilder &b, Location l, Value x) {
    if (x.getType() == wide)
      return x;
    if (form.isUnsigned)
      return arith::ExtUIOp::create(b, l, wide, x);
    return arith::ExtSIOp::create(b, l, wide, x);
  }

  /// `a` beats `b` in the compare's strict order.
  Value beats(OpBuilder &b, Location l, Value a, Value c) {
    if (isa<FloatType>(wide))
      return arith::CmpFOp::create(b, l,
                                   form.greater ? arith::CmpFPredicate::OGT
                                                : arith::CmpFPredicate::OLT,
                                   a, c);
    arith::CmpIPredicate p =
        form.isUnsigned
            ? (form.greater ? arith::CmpIPredicate::ugt
                            : arith::CmpIPredicate::ult)
            : (form.greater ? arith::CmpIPredicate::sgt
                            : arith::CmpIPredicate::slt);
    return arith::CmpIOp::create(b, l, p, a, c);
  }

  /// The extreme of `a` and `c`, NaN ignored.
  Value extreme(OpBuilder &b, Location l, Value a, Value c) {
    if (isa<FloatType>(wide)) {
      if (form.greater)
        return arith::MaxNumFOp::create(b, l, a, c);
      return arith::MinNumFOp::create(b, l, a, c);
    }
    if (form.isUnsigned)
      return form.greater ? arith::MaxUIOp::create(b, l, a, c).getResult()
                          : arith::MinUIOp::create(b, l, a, c).getResult();
    return form.greater ? arith::MaxSIOp::create(b, l, a, c).getResult()
                        : arith::MinSIOp::create(b, l, a, c).getResult();
  }

  /// The initial value in the widened type.
  TypedAttr wideV0() {
    if (wide == xType)
      return form.v0;
    APInt v = cast<IntegerAttr>(form.v0).getValue();
    v = form.isUnsigned ? v.zext(32) : v.sext(32);
    return rw.getIntegerAttr(wide, v);
  }

  void run() {
    rw.setInsertionPoint(g);
    TypedAttr big = rw.getI32IntegerAttr(kNoIndex);
    TypedAttr v0 = wideV0();
    Value first; // P: the first NaN's position.
    bool masked = form.update == ValueUpdate::PropagateNaN && !form.nanWins;
    if (masked || form.nanWins)
      first = reduce(big, {}, [&](OpBuilder &b, Location l, Value x, Value j,
                                  ValueRange, Value acc) {
        Value nan = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x,
                                          x);
        Value cand = arith::SelectOp::create(
            b, l, nan, j, arith::ConstantOp::create(b, l, big));
        return arith::MinSIOp::create(b, l, acc, cand).getResult();
      });
    SmallVector<Value> firstIn;
    if (masked)
      firstIn.push_back(first);
    // E: the extreme over the elements (before the first NaN).
    Value ext = reduce(v0, firstIn, [&](OpBuilder &b, Location l, Value x,
                                        Value j, ValueRange s, Value acc) {
      if (!s.empty()) {
        Value before =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, j, s[0]);
        Value nan = arith::ConstantOp::create(
            b, l, b.getFloatAttr(wide, APFloat::getNaN(
                                           cast<FloatType>(wide)
                                               .getFloatSemantics())));
        x = arith::SelectOp::create(b, l, before, x, nan);
      }
      return extreme(b, l, acc, x);
    });
    // Q: the first position holding it.
    Value pos = reduce(big, ext, [&](OpBuilder &b, Location l, Value x,
                                     Value j, ValueRange s, Value acc) {
      Value eq = isa<FloatType>(wide)
                     ? arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                             x, s[0])
                           .getResult()
                     : arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                             x, s[0])
                           .getResult();
      Value cand = arith::SelectOp::create(
          b, l, eq, j, arith::ConstantOp::create(b, l, big));
      return arith::MinSIOp::create(b, l, acc, cand).getResult();
    });
    Type indexType = form.i0.getType();
    SmallVector<Value> indexIns = {ext, pos};
    if (form.nanWins)
      indexIns.push_back(first);
    auto widenIndex = [&](OpBuilder &b, Location l, Value q) {
      if (q.getType() != indexType)
        q = arith::ExtSIOp::create(b, l, indexType, q);
      return q;
    };
    Value index = pointwise(
        indexType, indexIns, [&](OpBuilder &b, Location l, ValueRange a) {
          Value found =
              beats(b, l, a[0], arith::ConstantOp::create(b, l, v0));
          Value r = arith::SelectOp::create(
              b, l, found, widenIndex(b, l, a[1]),
              arith::ConstantOp::create(b, l, form.i0));
          if (form.nanWins)
            // The first NaN, where there is one.
            r = arith::SelectOp::create(b, l, hasNaN(b, l, a[2]),
                                        widenIndex(b, l, a[2]), r);
          return r;
        });
    SmallVector<Value> results(2);
    results[form.indexOut] = index;
    Value valueResult = g.getResult(form.valueOut);
    if (!valueResult.use_empty())
      results[form.valueOut] = buildValue(ext, pos, first);
    else
      results[form.valueOut] = filled(form.v0); // dead, folded away
    rw.replaceOp(g, results);
  }

  /// Whether a first-NaN position `p` marks a NaN (INT32_MAX: none).
  Value hasNaN(OpBuilder &b, Location l, Value p) {
    return arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::ne, p,
        arith::ConstantOp::create(b, l, b.getI32IntegerAttr(kNoIndex)));
  }

  /// The value output.
  Value buildValue(Value ext, Value pos, Value first) {
    auto narrow = [&](Value v) {
      if (getElementTypeOrSelf(v.getType()) == xType)
        return v;
      return pointwise(xType, v, [&](OpBuilder &b, Location l, ValueRange a) {
        return arith::TruncIOp::create(b, l, xType, a[0]).getResult();
      });
    };
    switch (form.update) {
    case ValueUpdate::Integer:
    case ValueUpdate::IgnoreNaN:
      // The extreme itself (with maxnum's freedom over the sign of zero).
      return narrow(ext);
    case ValueUpdate::PropagateNaN:
      return reduce(form.v0, {}, [&](OpBuilder &b, Location l, Value x,
                                     Value, ValueRange, Value acc) {
        if (form.greater)
          return arith::MaximumFOp::create(b, l, acc, x).getResult();
        return arith::MinimumFOp::create(b, l, acc, x).getResult();
      });
    case ValueUpdate::Select:
      break;
    }
    // The element at Q (at the first NaN, where one wins), where something
    // beat v0; v0 otherwise.
    Value target = pos;
    if (form.nanWins)
      target = pointwise(rw.getI32Type(), {pos, first},
                         [&](OpBuilder &b, Location l, ValueRange a) {
                           return arith::SelectOp::create(
                                      b, l, hasNaN(b, l, a[1]), a[1], a[0])
                               .getResult();
                         });
    // Picked through its bits (an or over zero-extended bit patterns, every
    // other term 0): exact for -0.0 and NaN payloads alike, whatever
    // identity a partial starts from.
    unsigned bits = xType.getIntOrFloatBitWidth();
    Type bitsType = rw.getIntegerType(bits);
    Value pickedBits = reduce(
        rw.getI32IntegerAttr(0), target,
        [&](OpBuilder &b, Location l, Value x, Value j, ValueRange s,
            Value acc) {
          Value at =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, j, s[0]);
          Value xb = arith::BitcastOp::create(b, l, bitsType, x);
          if (bits < 32)
            xb = arith::ExtUIOp::create(b, l, b.getI32Type(), xb);
          Value term = arith::SelectOp::create(
              b, l, at, xb,
              arith::ConstantOp::create(b, l, b.getI32IntegerAttr(0)));
          return arith::OrIOp::create(b, l, acc, term).getResult();
        });
    Value picked = pointwise(
        xType, pickedBits, [&](OpBuilder &b, Location l, ValueRange a) {
          Value v = a[0];
          if (bits < 32)
            v = arith::TruncIOp::create(b, l, bitsType, v);
          return arith::BitcastOp::create(b, l, xType, v).getResult();
        });
    SmallVector<Value> ins = {ext, picked};
    if (form.nanWins)
      ins.push_back(first);
    return pointwise(xType, ins, [&](OpBuilder &b, Location l, ValueRange a) {
      Value v0 = arith::ConstantOp::create(b, l, form.v0);
      Value found = beats(b, l, a[0], v0);
      if (form.nanWins)
        found = arith::OrIOp::create(b, l, found, hasNaN(b, l, a[2]));
      return arith::SelectOp::create(b, l, found, a[1], v0).getResult();
    });
  }

private:
  RewriterBase &rw;
  linalg::GenericOp g;
  const ArgForm &form;
  Location loc;
  unsigned numIn;
  SmallVector<AffineMap> maps;
  AffineMap outMap;
  SmallVector<int64_t> outShape;
  Type xType, wide;
};

struct ArgReductionsPass
    : memopt::impl::MemoptArgReductionsPassBase<ArgReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp g) {
      if (g.hasPureTensorSemantics() && g.getNumDpsInits() == 2 &&
          g.getNumReductionLoops() > 0)
        generics.push_back(g);
    });
    IRRewriter rw(&getContext());
    for (linalg::GenericOp g : generics) {
      std::string why;
      FailureOr<ArgForm> form = matchArgReduction(g, why);
      if (failed(form)) {
        if (!why.empty())
          g.emitRemark("arg reduction kept as one op (a naive kernel): ")
              << why;
        continue;
      }
      ArgBuilder(rw, g, *form).run();
    }
  }
};
} // namespace

//===- PairwiseReductions.cpp - reductions in a pairwise order -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-pairwise-reductions: every float reduction of
// a tensor-level function whose combiner is recognized is evaluated in the
// program's own precision but in a pairwise (binary tree) order instead of
// the sequential order the loops of the literal reference give. The CPU
// reference built this way measures how accurate an evaluation of the
// program in its own precision can be when the reduction is reassociated,
// which is what a GPU kernel does; the verdicts of memopt-run and
// memopt-cpu-diff scale their bound from its distance to the f64 value.
//
// A generic with reduction loops and outputs y_k = comb_k(acc_k, v_k) (comb
// one of addf, mulf, maximumf, minimumf, maxnumf, minnumf; acc_k used only
// there) becomes:
//   1. a parallel generic over the whole iteration space computing v_k (the
//      body as written, in the program's types, without the combiners);
//   2. for each reduction dim, levels that combine neighbours (2j, 2j+1),
//      an odd last element into the first, until the dim has extent 1;
//   3. a generic that combines the original init with the tree's value
//      through the original output maps (keepdim constants, permutations).
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTPAIRWISEREDUCTIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// One output of a reduction generic: y = comb(acc, v) or comb(v, acc).
struct Combiner {
  Operation *op;
  Value value;     // v, in the body
  bool accFirst;   // comb(acc, v)
};
} // namespace

static bool isCombinerKind(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(op);
}

/// An op of `proto`'s kind (and attributes, e.g. fastmath) on `x` and `y`.
static Value combine(OpBuilder &b, Location loc, Operation *proto, Value x,
                     Value y) {
  OperationState state(loc, proto->getName());
  state.addOperands({x, y});
  state.addTypes(x.getType());
  state.addAttributes(proto->getAttrs());
  return b.create(state)->getResult(0);
}

/// The combiners of `g`'s outputs, or the reason it keeps its order.
static FailureOr<SmallVector<Combiner>> matchCombiners(linalg::GenericOp g,
                                                        std::string &why) {
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<Combiner> result;
  for (unsigned k = 0, e = g.getNumDpsInits(); k < e; ++k) {
    BlockArgument acc = body->getArgument(g.getNumDpsInputs() + k);
    Operation *c = yield.getOperand(k).getDefiningOp();
    if (!isa<FloatType>(acc.getType())) {
      why = "an output is not a float";
      return failure();
    }
    if (!c || c->getBlock() != body || !isCombinerKind(c) ||
        !c->hasOneUse() || !acc.hasOneUse() ||
        acc.use_begin()->getOwner() != c ||
        c->getOperand(0) == c->getOperand(1)) {
      why = "output " + std::to_string(k) +
            " is not comb(acc, value) with comb one of addf, mulf, "
            "maximumf, minimumf, maxnumf, minnumf and acc used only there";
      return failure();
    }
    bool accFirst = c->getOperand(0) == acc;
    result.push_back({c, c->getOperand(accFirst ? 1 : 0), accFirst});
  }
  return result;
}

/// `t` reduced along `dim` to extent 1 by halving levels. Each level is one
/// generic on the tensor of the level before: out[j] = comb(t[2j], t[2j+1])
/// for an extent of 2h or 2h + 1, the last element of an odd extent
/// combined into out[0] (strided maps and a constant, no slices: the host
/// lowering has no strided copies).
static Value reduceDim(OpBuilder &b, Location loc, Operation *proto, Value t,
                       unsigned dim) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<int64_t> shape(type.getShape());
  unsigned rank = shape.size();
  MLIRContext *ctx = b.getContext();
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  while (shape[dim] > 1) {
    int64_t half = shape[dim] / 2;
    bool odd = shape[dim] % 2;
    AffineMap id = b.getMultiDimIdentityMap(rank);
    SmallVector<AffineExpr> evenExprs(id.getResults());
    SmallVector<AffineExpr> oddExprs = evenExprs, tailExprs = evenExprs;
    evenExprs[dim] = evenExprs[dim] * 2;
    oddExprs[dim] = oddExprs[dim] * 2 + 1;
    tailExprs[dim] = getAffineConstantExpr(2 * half, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, evenExprs, ctx),
                                   AffineMap::get(rank, 0, oddExprs, ctx)};
    SmallVector<Value> ins = {t, t};
    if (odd) {
      maps.push_back(AffineMap::get(rank, 0, tailExprs, ctx));
      ins.push_back(t);
    }
    maps.push_back(id);
    shape[dim] = half;
    Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    auto level = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
        parallel, [&](OpBuilder &nb, Location l, ValueRange args) {
          Value v = combine(nb, l, proto, args[0], args[1]);
          if (odd) {
            Value j = linalg::IndexOp::create(nb, l, dim);
            Value zero = arith::ConstantIndexOp::create(nb, l, 0);
            Value first = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::eq, j, zero);
            v = arith::SelectOp::create(nb, l, first,
                                        combine(nb, l, proto, v, args[2]), v);
          }
          linalg::YieldOp::create(nb, l, v);
        });
    t = level.getResult(0);
  }
  return t;
}

/// Rewrites `g` (matched by matchCombiners) into the pairwise form.
static void rewritePairwise(OpBuilder &b, linalg::GenericOp g,
                            ArrayRef<Combiner> combiners,
                            ArrayRef<int64_t> ranges) {
  Location loc = g.getLoc();
  b.setInsertionPoint(g);
  unsigned numLoops = ranges.size(), numIn = g.getNumDpsInputs();
  Block *body = g.getBody();
  AffineMap id = b.getMultiDimIdentityMap(numLoops);

  // 1. The values combined, over the whole iteration space.
  SmallVector<Type> valueTypes;
  SmallVector<Value> inits;
  SmallVector<AffineMap> maps;
  for (unsigned i = 0; i < numIn; ++i)
    maps.push_back(g.getIndexingMapsArray()[i]);
  for (const Combiner &c : combiners) {
    Type elt = c.value.getType();
    valueTypes.push_back(RankedTensorType::get(ranges, elt));
    inits.push_back(tensor::EmptyOp::create(b, loc, ranges, elt));
    maps.push_back(id);
  }
  SmallVector<utils::IteratorType> parallel(numLoops,
                                            utils::IteratorType::parallel);
  auto values = linalg::GenericOp::create(
      b, loc, valueTypes, g.getDpsInputs(), inits, maps, parallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        IRMapping mapping;
        for (unsigned i = 0; i < numIn; ++i)
          mapping.map(body->getArgument(i), args[i]);
        for (Operation &op : body->without_terminator()) {
          if (llvm::any_of(combiners,
                           [&](const Combiner &c) { return c.op == &op; }))
            continue;
          nb.clone(op, mapping);
        }
        SmallVector<Value> yielded;
        for (const Combiner &c : combiners)
          yielded.push_back(mapping.lookupOrDefault(c.value));
        linalg::YieldOp::create(nb, l, yielded);
      });

  // 2. The trees.
  SmallVector<Value> reduced;
  for (auto [k, c] : llvm::enumerate(combiners)) {
    Value t = values.getResult(k);
    for (unsigned d = 0; d < numLoops; ++d)
      if (g.getIteratorTypesArray()[d] == utils::IteratorType::reduction)
        t = reduceDim(b, loc, c.op, t, d);
    reduced.push_back(t);
  }

  // 3. Into the inits, through the original output maps.
  SmallVector<AffineMap> finalMaps(combiners.size(), id);
  for (unsigned k = 0; k < combiners.size(); ++k)
    finalMaps.push_back(g.getIndexingMapsArray()[numIn + k]);
  auto into = linalg::GenericOp::create(
      b, loc, g.getResultTypes(), reduced, g.getDpsInits(), finalMaps,
      g.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> yielded;
        for (auto [k, c] : llvm::enumerate(combiners)) {
          Value t = args[k], acc = args[combiners.size() + k];
          yielded.push_back(c.accFirst ? combine(nb, l, c.op, acc, t)
                                       : combine(nb, l, c.op, t, acc));
        }
        linalg::YieldOp::create(nb, l, yielded);
      });
  g->replaceAllUsesWith(into->getResults());
  g->erase();
}

static uint64_t iterationSize(ArrayRef<int64_t> ranges) {
  uint64_t n = 1;
  for (int64_t r : ranges)
    n = llvm::SaturatingMultiply(n, uint64_t(r));
  return n;
}

/// Elements of `g`'s largest (static) operand.
static uint64_t largestOperand(linalg::GenericOp g) {
  uint64_t n = 1;
  for (Value v : g->getOperands())
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      if (t.hasStaticShape())
        n = std::max<uint64_t>(n, t.getNumElements());
  return n;
}

namespace {
struct MemoptPairwiseReductionsPass
    : public memopt::impl::MemoptPairwiseReductionsPassBase<
          MemoptPairwiseReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp g) { generics.push_back(g); });
    OpBuilder b(&getContext());
    for (linalg::GenericOp g : generics) {
      if (g.getNumReductionLoops() == 0)
        continue;
      std::string why;
      SmallVector<int64_t> ranges = g.getStaticLoopRanges();
      if (!g.hasPureTensorSemantics())
        why = "it is not on tensors";
      else if (llvm::any_of(ranges, [](int64_t r) { return r <= 0; }))
        why = "its iteration space is dynamic or empty";
      else if (iterationSize(ranges) > largestOperand(g))
        // A contraction: the values combined would be M*N*K elements.
        why = "its iteration space is larger than any operand";
      else if (llvm::all_of(g.getDpsInits(), [](Value v) {
                 return isa<IntegerType>(getElementTypeOrSelf(v.getType()));
               }))
        continue; // integer reductions are exact in any order
      FailureOr<SmallVector<Combiner>> combiners = failure();
      if (why.empty())
        combiners = matchCombiners(g, why);
      if (failed(combiners)) {
        g.emitRemark("reduction kept in the program's order in the pairwise "
                     "reference: ")
            << why;
        continue;
      }
      rewritePairwise(b, g, *combiners, ranges);
    }
  }
};
} // namespace

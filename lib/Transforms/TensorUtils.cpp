//===- TensorUtils.cpp - tensor-level helpers of memopt passes -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "KernelFormation/Grouping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value mlir::memopt::createElementwiseGeneric(
    OpBuilder &b, Location loc, Value input, Type elementType,
    function_ref<Value(OpBuilder &, Location, Value)> body) {
  auto from = cast<RankedTensorType>(input.getType());
  auto to = from.clone(elementType);
  Value empty =
      tensor::EmptyOp::create(b, loc, from.getShape(), elementType);
  AffineMap id = b.getMultiDimIdentityMap(from.getRank());
  SmallVector<utils::IteratorType> iters(from.getRank(),
                                         utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{to}, ValueRange{input}, ValueRange{empty},
             ArrayRef<AffineMap>{id, id}, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args[0]));
             })
      .getResult(0);
}

void mlir::memopt::collectBodySlice(Value v, Block *body,
                                    llvm::SetVector<Operation *> &ops,
                                    llvm::SetVector<BlockArgument> &args) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == body)
      args.insert(arg);
    return;
  }
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != body || ops.contains(op))
    return;
  for (Value operand : op->getOperands())
    collectBodySlice(operand, body, ops, args);
  // Values used inside nested regions (none in the contract's bodies, but
  // keep them whole).
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (operand.getParentBlock() == body || isa<BlockArgument>(operand))
        collectBodySlice(operand, body, ops, args);
  });
  ops.insert(op);
}

Attribute mlir::memopt::getFillConstant(Value t) {
  Value scalar;
  if (auto fill = t.getDefiningOp<linalg::FillOp>()) {
    scalar = fill.getInputs()[0];
  } else if (auto g = t.getDefiningOp<linalg::GenericOp>()) {
    scalar = kf::getFillValue(g);
  }
  Attribute value;
  if (scalar && matchPattern(scalar, m_Constant(&value)))
    return value;
  return Attribute();
}

void mlir::memopt::sinkToFirstUser(Operation *op) {
  Operation *first = nullptr;
  for (Operation *u : op->getUsers()) {
    if (u->getBlock() != op->getBlock())
      return;
    if (!first || u->isBeforeInBlock(first))
      first = u;
  }
  if (first && op->isBeforeInBlock(first))
    op->moveBefore(first);
}

std::optional<memopt::OnePlusMinusTanh>
mlir::memopt::matchOnePlusMinusTanh(Value t) {
  if (!t.getType().isF32() || !t.hasOneUse())
    return std::nullopt;
  auto isOne = [](Value v) {
    FloatAttr c;
    return matchPattern(v, m_Constant(&c)) && c.getValue().isExactlyValue(1.0);
  };
  Operation *user = *t.getUsers().begin();
  if (auto add = dyn_cast<arith::AddFOp>(user);
      add && isOne(add.getLhs() == t ? add.getRhs() : add.getLhs()))
    return OnePlusMinusTanh{user, -1.0f};
  if (auto sub = dyn_cast<arith::SubFOp>(user);
      sub && sub.getRhs() == t && isOne(sub.getLhs()))
    return OnePlusMinusTanh{user, 1.0f};
  return std::nullopt;
}

linalg::GenericOp mlir::memopt::inlineProducer(RewriterBase &rewriter,
                                                linalg::GenericOp g,
                                                OpOperand &use,
                                                linalg::GenericOp p) {
  AffineMap useMap = g.getMatchingIndexingMap(&use);
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : g.getDpsInputOperands())
    if (in != &use) {
      ins.push_back(in->get());
      maps.push_back(g.getMatchingIndexingMap(in));
    }
  unsigned firstProducerInput = ins.size();
  for (OpOperand *in : p.getDpsInputOperands()) {
    ins.push_back(in->get());
    maps.push_back(p.getMatchingIndexingMap(in).compose(useMap));
  }
  for (OpOperand &out : g.getDpsInitsMutable())
    maps.push_back(g.getMatchingIndexingMap(&out));
  rewriter.setInsertionPoint(g);
  auto fused = linalg::GenericOp::create(
      rewriter, g.getLoc(), g.getResultTypes(), ins, g.getDpsInits(), maps,
      g.getIteratorTypesArray());
  Block *block = rewriter.createBlock(&fused.getRegion());
  for (Value v : ins)
    block->addArgument(getElementTypeOrSelf(v.getType()), g.getLoc());
  for (Value v : g.getDpsInits())
    block->addArgument(getElementTypeOrSelf(v.getType()), g.getLoc());
  rewriter.setInsertionPointToStart(block);
  // The producer's body on its inputs' arguments gives the value.
  IRMapping pm;
  for (unsigned i = 0; i < p.getNumDpsInputs(); ++i)
    pm.map(p.getBody()->getArgument(i),
           block->getArgument(firstProducerInput + i));
  for (Operation &op : p.getBody()->without_terminator())
    rewriter.clone(op, pm);
  Value value = pm.lookupOrDefault(
      cast<linalg::YieldOp>(p.getBody()->getTerminator()).getValues()[0]);
  // Then the reduction's body, its argument for `use` bound to the value.
  IRMapping gm;
  unsigned k = 0;
  for (OpOperand *in : g.getDpsInputOperands()) {
    BlockArgument arg = g.getBody()->getArgument(in->getOperandNumber());
    gm.map(arg, in == &use ? value : block->getArgument(k++));
  }
  for (unsigned i = 0; i < g.getNumDpsInits(); ++i)
    gm.map(g.getBody()->getArgument(g.getNumDpsInputs() + i),
           block->getArgument(ins.size() + i));
  for (Operation &op : g.getBody()->getOperations())
    rewriter.clone(op, gm);
  rewriter.replaceOp(g, fused.getResults());
  return fused;
}

bool mlir::memopt::isSameBodyValue(
    Value a, linalg::GenericOp opA, Value b, linalg::GenericOp opB,
    function_ref<bool(OpOperand &, OpOperand &)> sameInput) {
  if (a.getType() != b.getType())
    return false;
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  bool inA = argA && argA.getOwner() == opA.getBody();
  bool inB = argB && argB.getOwner() == opB.getBody();
  if (inA || inB) {
    if (!inA || !inB || argA.getArgNumber() >= opA.getNumDpsInputs() ||
        argB.getArgNumber() >= opB.getNumDpsInputs())
      return false;
    return sameInput(*opA.getDpsInputOperand(argA.getArgNumber()),
                     *opB.getDpsInputOperand(argB.getArgNumber()));
  }
  Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
  bool insideA = defA && opA->isProperAncestor(defA);
  bool insideB = defB && opB->isProperAncestor(defB);
  if (!insideA && !insideB)
    return a == b;
  if (!insideA || !insideB || defA->getNumRegions() != 0 ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      defA, defB,
      [&](Value x, Value y) {
        return success(isSameBodyValue(x, opA, y, opB, sameInput));
      },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

bool mlir::memopt::isComputedFrom(Value v, BlockArgument arg,
                                  linalg::GenericOp op) {
  if (v == arg)
    return true;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  options.inclusive = true;
  options.filter = [&](Operation *o) { return op->isProperAncestor(o); };
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(v, &slice, options)))
    return true;
  return llvm::any_of(slice, [&](Operation *o) {
    return llvm::is_contained(o->getOperands(), Value(arg));
  });
}

Value mlir::memopt::getMaximumValues(linalg::GenericOp max) {
  if (max.getNumDpsInits() != 1)
    return Value();
  Block *body = max.getBody();
  BlockArgument acc = body->getArgument(max.getNumDpsInputs());
  Value yielded = body->getTerminator()->getOperand(0);
  Operation *comb = yielded.getDefiningOp();
  if (!comb || !isa<arith::MaxNumFOp, arith::MaximumFOp>(comb) ||
      comb->getBlock() != body || !acc.hasOneUse() || !yielded.hasOneUse())
    return Value();
  if (comb->getOperand(0) != acc && comb->getOperand(1) != acc)
    return Value();
  Value v = comb->getOperand(0) == acc ? comb->getOperand(1)
                                       : comb->getOperand(0);
  return isComputedFrom(v, acc, max) ? Value() : v;
}

std::function<void(OpBuilder &, Location, ValueRange)>
mlir::memopt::getCombinerBodyBuilder(linalg::GenericOp g) {
  Value acc = g.getBody()->getArgument(g.getNumDpsInputs());
  Operation *combiner = *acc.user_begin();
  return [acc, combiner](OpBuilder &b, Location loc, ValueRange args) {
    IRMapping map;
    for (Value v : combiner->getOperands())
      map.map(v, v == acc ? args[1] : args[0]);
    Operation *c = b.clone(*combiner, map);
    linalg::YieldOp::create(b, loc, c->getResult(0));
  };
}

Value mlir::memopt::createFillGeneric(RewriterBase &rewriter, Location loc,
                                      Value value, Value init) {
  auto fill = linalg::FillOp::create(rewriter, loc, value, init);
  FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, fill);
  assert(succeeded(g) && "a fill always generalizes");
  return g->getNumResults() ? g->getResult(0) : Value();
}

mlir::memopt::LoopPartial mlir::memopt::getLoopPartial(linalg::GenericOp g, unsigned k) {
  LoopPartial p;
  p.k = k;
  MLIRContext *ctx = g.getContext();
  SmallVector<AffineExpr> exprs;
  for (auto [i, r, it] : llvm::enumerate(g.getStaticLoopRanges(),
                                         g.getIteratorTypesArray())) {
    if (i == k)
      continue;
    p.shape.push_back(r);
    exprs.push_back(getAffineDimExpr(i, ctx));
    p.restIterators.push_back(it);
  }
  p.map = AffineMap::get(g.getNumLoops(), 0, exprs, ctx);
  return p;
}

AffineMap mlir::memopt::LoopPartial::dropLoop(AffineMap m) const {
  llvm::SmallBitVector drop(m.getNumDims());
  drop.set(k);
  return compressDims(m, drop);
}

Value mlir::memopt::expandDim(OpBuilder &b, Location loc, Value t,
                              unsigned pos, int64_t inner) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassoc;
  for (auto [p, s] : llvm::enumerate(type.getShape())) {
    if (p == pos) {
      reassoc.push_back({(int64_t)shape.size(), (int64_t)shape.size() + 1});
      shape.push_back(s / inner);
      shape.push_back(inner);
      continue;
    }
    reassoc.push_back({(int64_t)shape.size()});
    shape.push_back(s);
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), t, reassoc);
}

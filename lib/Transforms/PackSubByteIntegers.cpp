//===- PackSubByteIntegers.cpp - i2/i4 inputs stored packed -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-pack-sub-byte-integers. LLVM stores an i4 in a
// byte of its own; frontends mean two per byte (int4 weights of GPTQ, AWQ,
// IREE's dequantization dispatches). Each i2/i4 function argument becomes
// its i8 storage (the innermost dim divided by the pack factor k, low bits
// first), reshapes of it are rebuilt on the storage, and every generic that
// reads it has the loop over the packed dim split in two: the byte index
// and, innermost, the element within the byte (extent k). The byte is read
// through a projected permutation like any input; the other operands of
// that loop are expanded along it (tensor.expand_shape), the results
// collapsed back; the body shifts the element out of its byte with the
// index of the new loop. Everything after this pass sees i8 tensors and
// projected-permutation maps only; the bodies compute on the i4 values
// exactly as before.
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTPACKSUBBYTEINTEGERSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

unsigned mlir::memopt::getSubBytePackFactor(Type elementType) {
  auto i = dyn_cast<IntegerType>(elementType);
  if (!i || (i.getWidth() != 2 && i.getWidth() != 4))
    return 0;
  return 8 / i.getWidth();
}

RankedTensorType mlir::memopt::getPackedStorageType(RankedTensorType t) {
  unsigned factor = getSubBytePackFactor(t.getElementType());
  if (!factor || !t.hasStaticShape() || t.getRank() == 0 ||
      t.getShape().back() % factor != 0)
    return {};
  SmallVector<int64_t> shape(t.getShape());
  shape.back() /= factor;
  return RankedTensorType::get(shape, IntegerType::get(t.getContext(), 8));
}


namespace {
/// One packed input of a generic: its operand number and element type.
struct PackedRead {
  unsigned operand;
  IntegerType elementType;
};
} // namespace

/// The element of type `elementType` at position `lane` (an i8) of the
/// storage byte `byte`.
static Value unpack(OpBuilder &b, Location loc, Value byte, Value lane,
                    IntegerType elementType) {
  Type i8 = b.getI8Type();
  Value shift = arith::MulIOp::create(
      b, loc, lane,
      arith::ConstantIntOp::create(b, loc, i8, elementType.getWidth()));
  Value shifted = arith::ShRUIOp::create(b, loc, byte, shift);
  return arith::TruncIOp::create(b, loc, elementType, shifted);
}

/// Rewrites `generic`, whose inputs `reads` now hold packed storage, to read
/// bytes (see the file comment). Returns the new op.
static FailureOr<linalg::GenericOp>
rewriteReader(linalg::GenericOp generic, ArrayRef<PackedRead> reads) {
  MLIRContext *ctx = generic.getContext();
  Location loc = generic.getLoc();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  unsigned numLoops = generic.getNumLoops();
  // The loop that walks the packed dim of every packed read (all the same).
  std::optional<unsigned> split;
  unsigned factor = 0;
  for (const PackedRead &r : reads) {
    unsigned f = getSubBytePackFactor(r.elementType);
    AffineExpr inner = maps[r.operand].getResults().back();
    if (isa<AffineConstantExpr>(inner))
      continue;
    auto d = dyn_cast<AffineDimExpr>(inner);
    if (!d)
      return generic.emitOpError("reads a packed ")
             << r.elementType << " tensor through a map whose innermost "
             << "result is neither a loop dim nor a constant: "
             << AffineMapAttr::get(maps[r.operand]);
    if ((split && *split != d.getPosition()) || (factor && factor != f))
      return generic.emitOpError("reads packed tensors along different loops "
                                 "or with different pack factors; one "
                                 "split loop per op is supported");
    split = d.getPosition();
    factor = f;
  }
  // New loops: old loop i stays i up to the split loop, which becomes the
  // byte index; the element index within the byte is loop split + 1.
  auto newDim = [&](unsigned i) {
    return getAffineDimExpr(split && i > *split ? i + 1 : i, ctx);
  };
  unsigned newLoops = numLoops + (split ? 1 : 0);
  OpBuilder b(generic);
  SmallVector<Value> operands;
  SmallVector<AffineMap> newMaps;
  // Operand -> (result position of the split loop) for expanded operands.
  DenseMap<unsigned, unsigned> expandedAt;
  for (OpOperand &operand : generic->getOpOperands()) {
    unsigned n = operand.getOperandNumber();
    AffineMap map = maps[n];
    const PackedRead *read = llvm::find_if(
        reads, [&](const PackedRead &r) { return r.operand == n; });
    if (read == reads.end())
      read = nullptr;
    SmallVector<AffineExpr> results;
    std::optional<unsigned> pos;
    for (auto [p, e] : llvm::enumerate(map.getResults())) {
      if (auto c = dyn_cast<AffineConstantExpr>(e)) {
        bool packedDim = read && p + 1 == map.getNumResults();
        results.push_back(packedDim ? getAffineConstantExpr(
                                          c.getValue() / getSubBytePackFactor(
                                                             read->elementType),
                                          ctx)
                                    : e);
        continue;
      }
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      results.push_back(newDim(d));
      if (split && d == *split && !read) {
        results.push_back(getAffineDimExpr(*split + 1, ctx));
        pos = p;
      }
    }
    newMaps.push_back(AffineMap::get(newLoops, 0, results, ctx));
    Value v = operand.get();
    if (pos) {
      v = expandDim(b, loc, v, *pos, factor);
      expandedAt[n] = *pos;
    }
    operands.push_back(v);
  }
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  if (split)
    iterators.insert(iterators.begin() + *split + 1, iterators[*split]);
  unsigned numInputs = generic.getNumDpsInputs();
  SmallVector<Value> ins(operands.begin(), operands.begin() + numInputs);
  SmallVector<Value> outs(operands.begin() + numInputs, operands.end());
  SmallVector<Type> resultTypes;
  for (Value o : outs)
    resultTypes.push_back(o.getType());
  auto repl = linalg::GenericOp::create(b, loc, resultTypes, ins, outs, newMaps,
                                        iterators);
  repl.getRegion().takeBody(generic.getRegion());
  Block *body = repl.getBody();
  // Loop indices in the body: shifted past the new loop; the split loop's
  // logical index is byte * factor + lane.
  SmallVector<linalg::IndexOp> indices;
  body->walk([&](linalg::IndexOp op) { indices.push_back(op); });
  OpBuilder bb = OpBuilder::atBlockBegin(body);
  Value lane8;
  if (split) {
    Value lane = linalg::IndexOp::create(bb, loc, *split + 1);
    lane8 = arith::IndexCastUIOp::create(bb, loc, bb.getI8Type(), lane);
  }
  for (linalg::IndexOp op : indices) {
    unsigned d = op.getDim();
    if (!split || d < *split)
      continue;
    if (d > *split) {
      op.setDim(d + 1);
      continue;
    }
    OpBuilder ib(op);
    ib.setInsertionPointAfter(op);
    Value lane = linalg::IndexOp::create(ib, loc, *split + 1);
    Value f = arith::ConstantIndexOp::create(ib, loc, factor);
    Value scaled = arith::MulIOp::create(ib, loc, op.getResult(), f);
    Value logical = arith::AddIOp::create(ib, loc, scaled, lane);
    op.getResult().replaceAllUsesExcept(logical, scaled.getDefiningOp());
  }
  for (const PackedRead &r : reads) {
    BlockArgument arg = body->getArgument(r.operand);
    arg.setType(bb.getI8Type());
    AffineExpr inner = maps[r.operand].getResults().back();
    Value lane = lane8;
    if (auto c = dyn_cast<AffineConstantExpr>(inner))
      lane = arith::ConstantIntOp::create(
          bb, loc, bb.getI8Type(),
          c.getValue() % getSubBytePackFactor(r.elementType));
    Value element = unpack(bb, loc, arg, lane, r.elementType);
    arg.replaceAllUsesExcept(
        element, element.getDefiningOp()->getOperand(0).getDefiningOp());
  }
  // Results back in their original shapes.
  for (auto [i, result] : llvm::enumerate(generic->getResults())) {
    Value v = repl->getResult(i);
    auto it = expandedAt.find(numInputs + i);
    if (it != expandedAt.end()) {
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<ReassociationIndices> reassoc;
      int64_t next = 0;
      for (int64_t p = 0; p < type.getRank(); ++p) {
        if (p == (int64_t)it->second) {
          reassoc.push_back({next, next + 1});
          next += 2;
        } else {
          reassoc.push_back({next++});
        }
      }
      v = tensor::CollapseShapeOp::create(b, loc, type, v, reassoc);
    }
    result.replaceAllUsesWith(v);
  }
  generic.erase();
  return repl;
}

LogicalResult mlir::memopt::packSubByteArguments(func::FuncOp func) {
  if (func.isExternal())
    return success();
  Block &entry = func.getBody().front();
  SmallVector<Type> inputs(func.getFunctionType().getInputs());
  bool changed = false;
  // The linalg ops that read packed storage, in first-seen order.
  DenseMap<Operation *, SmallVector<PackedRead>> readers;
  SmallVector<Operation *> order;
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !getSubBytePackFactor(type.getElementType()))
      continue;
    RankedTensorType packed = getPackedStorageType(type);
    if (!packed)
      return func.emitOpError("has a ")
             << type << " argument that cannot be stored packed: its "
             << "innermost dim must be a multiple of "
             << getSubBytePackFactor(type.getElementType());
    auto elementType = cast<IntegerType>(type.getElementType());
    arg.setType(packed);
    inputs[arg.getArgNumber()] = packed;
    changed = true;
    // Values that now hold packed storage; their readers still expect the
    // logical tensor.
    SmallVector<Value> worklist = {arg};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (OpOperand &use : llvm::make_early_inc_range(v.getUses())) {
        Operation *user = use.getOwner();
        OpBuilder b(user);
        // A reshape of the storage: the same reshape of the bytes.
        auto rebuild = [&](auto reshape) -> LogicalResult {
          using ReshapeOp = decltype(reshape);
          RankedTensorType to = getPackedStorageType(reshape.getResultType());
          if (!to)
            return reshape.emitOpError("reshapes a packed ")
                   << elementType << " tensor to an innermost dim that is "
                   << "not a multiple of "
                   << getSubBytePackFactor(elementType);
          auto repl = ReshapeOp::create(b, reshape.getLoc(), to, v,
                                        reshape.getReassociationIndices());
          reshape.getResult().replaceAllUsesWith(repl.getResult());
          reshape.erase();
          worklist.push_back(repl.getResult());
          return success();
        };
        if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user)) {
          if (failed(rebuild(expand)))
            return failure();
          continue;
        }
        if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(user)) {
          if (failed(rebuild(collapse)))
            return failure();
          continue;
        }
        auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
        if (linalgOp && linalgOp.isDpsInput(&use)) {
          auto &list = readers[user];
          if (list.empty())
            order.push_back(user);
          list.push_back({use.getOperandNumber(), elementType});
          continue;
        }
        return user->emitOpError("reads a packed ")
               << elementType << " tensor; only linalg inputs and reshapes "
               << "may (it is stored " << getSubBytePackFactor(elementType)
               << " to a byte)";
      }
    }
  }
  IRRewriter rewriter(func.getContext());
  for (Operation *op : order) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> g =
          linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(op));
      if (failed(g))
        return op->emitOpError("reads a packed tensor and cannot be "
                               "generalized");
      generic = *g;
    }
    if (failed(rewriteReader(generic, readers[op])))
      return failure();
  }
  if (changed)
    func.setFunctionType(FunctionType::get(
        func.getContext(), inputs, func.getFunctionType().getResults()));
  return success();
}

namespace {
struct MemoptPackSubByteIntegersPass final
    : memopt::impl::MemoptPackSubByteIntegersPassBase<
          MemoptPackSubByteIntegersPass> {
  void runOnOperation() override {
    if (failed(packSubByteArguments(getOperation())))
      signalPassFailure();
  }
};
} // namespace

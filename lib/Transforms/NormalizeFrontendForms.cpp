//===- NormalizeFrontendForms.cpp - frontends' spellings to the contract -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-normalize-frontend-forms: forms that real
// frontends emit for things the input contract spells otherwise.
//   - bufferization.alloc_tensor without a copy (triton-shared): tensor.empty;
//   - splat tensor constants (tosa-to-linalg's scale and epsilon tensors):
//     a scalar constant in the body of each linalg op reading them, a
//     linalg.fill where they are used otherwise;
//   - scalars passed through 0-d tensors: tensor.from_elements and
//     tensor.insert into a 0-d tensor become a linalg.fill; a
//     tensor.extract of a 0-d tensor used in linalg bodies becomes an input
//     of those ops (read through the map to no dims), and a linalg.fill of
//     it a broadcasting linalg.generic.
// Values are unchanged; what stays outside the contract (non-splat dense
// constants, scalars used outside linalg) is left for the contract check to
// name.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTNORMALIZEFRONTENDFORMSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// A copy of `g` reading `inputs` through `maps` (then the outputs' maps),
/// with `g`'s body moved into it; `g` is replaced by it.
static linalg::GenericOp rebuildGeneric(RewriterBase &rewriter,
                                        linalg::GenericOp g,
                                        ValueRange inputs,
                                        ArrayRef<AffineMap> maps) {
  rewriter.setInsertionPoint(g);
  auto fresh = linalg::GenericOp::create(
      rewriter, g.getLoc(), g.getResultTypes(), inputs, g.getDpsInits(), maps,
      g.getIteratorTypesArray());
  fresh->setDiscardableAttrs(g->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(g.getRegion(), fresh.getRegion(),
                              fresh.getRegion().begin());
  rewriter.replaceOp(g, fresh->getResults());
  return fresh;
}

/// `g` with input `index` removed; `value(b)` builds, at the start of the
/// new body, what replaces the input's block argument.
static void dropInput(RewriterBase &rewriter, linalg::GenericOp g,
                      unsigned index,
                      function_ref<Value(OpBuilder &, Location)> value) {
  SmallVector<Value> inputs(g.getDpsInputs());
  inputs.erase(inputs.begin() + index);
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  maps.erase(maps.begin() + index);
  Location loc = g.getLoc();
  linalg::GenericOp fresh = rebuildGeneric(rewriter, g, inputs, maps);
  Block *body = fresh.getBody();
  rewriter.setInsertionPointToStart(body);
  rewriter.replaceAllUsesWith(body->getArgument(index), value(rewriter, loc));
  body->eraseArgument(index);
}

/// `g` with `t` (a 0-d tensor) as a further input read through the map to
/// no dims; returns the new op and its block argument for `t`.
static std::pair<linalg::GenericOp, BlockArgument>
addScalarInput(RewriterBase &rewriter, linalg::GenericOp g, Value t) {
  SmallVector<Value> inputs(g.getDpsInputs());
  unsigned index = inputs.size();
  inputs.push_back(t);
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  maps.insert(maps.begin() + index,
              AffineMap::get(g.getNumLoops(), 0, rewriter.getContext()));
  linalg::GenericOp fresh = rebuildGeneric(rewriter, g, inputs, maps);
  BlockArgument arg = fresh.getBody()->insertArgument(
      index, cast<RankedTensorType>(t.getType()).getElementType(), t.getLoc());
  return {fresh, arg};
}

/// linalg.fill of `scalar` into a new tensor of `type`.
static Value createFill(OpBuilder &b, Location loc, Value scalar,
                        RankedTensorType type) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

/// Whether the indexing maps of `g` other than that of input `index` still
/// determine every loop's range (an input read along a loop no other
/// operand indexes, e.g. a reduction over a splat, cannot be dropped).
static bool loopsSurviveDropping(linalg::GenericOp g, unsigned index) {
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  maps.erase(maps.begin() + index);
  if (maps.empty())
    return false;
  AffineMap all = concatAffineMaps(maps, g.getContext());
  llvm::SmallBitVector seen(g.getNumLoops());
  for (AffineExpr e : all.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      seen.set(d.getPosition());
  return seen.all();
}

/// Folds the splat constant `cst` into the linalg ops that read it.
static void foldSplat(RewriterBase &rewriter, arith::ConstantOp cst) {
  auto type = dyn_cast<RankedTensorType>(cst.getType());
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!type || !dense || !dense.isSplat())
    return;
  auto scalar = dyn_cast<TypedAttr>(dense.getSplatValue<Attribute>());
  if (!scalar) // (complex splats)
    return;
  // One use at a time: folding rebuilds (erases) the user, which may hold
  // further uses of the constant.
  while (!cst->use_empty()) {
    OpOperand *use = &*cst->use_begin();
    Operation *user = use->getOwner();
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (linalgOp && linalgOp.isDpsInput(use) &&
        !isa<linalg::GenericOp>(user) && linalgOp.hasPureTensorSemantics()) {
      // A named op (tosa-to-linalg's linalg.mul with a scale tensor):
      // generalized here, as the input stage does next anyway.
      rewriter.setInsertionPoint(user);
      unsigned number = use->getOperandNumber();
      FailureOr<linalg::GenericOp> g =
          linalg::generalizeNamedOp(rewriter, linalgOp);
      if (succeeded(g)) {
        user = *g;
        use = &user->getOpOperand(number);
      }
    }
    auto g = dyn_cast<linalg::GenericOp>(user);
    if (g && g.isDpsInput(use) && g.hasPureTensorSemantics() &&
        loopsSurviveDropping(g, use->getOperandNumber())) {
      dropInput(rewriter, g, use->getOperandNumber(),
                [&](OpBuilder &b, Location loc) -> Value {
                  return arith::ConstantOp::create(b, loc, scalar);
                });
      continue;
    }
    // Anywhere else (an output, a result, the only operand along a loop):
    // the same values as a fill.
    rewriter.setInsertionPoint(user);
    Value s = arith::ConstantOp::create(rewriter, cst.getLoc(), scalar);
    Value fill = createFill(rewriter, cst.getLoc(), s, type);
    rewriter.modifyOpInPlace(user, [&] { use->set(fill); });
  }
  rewriter.eraseOp(cst);
}

/// A scalar read from the 0-d tensor `extract` reads, where linalg ops use
/// it, becomes their input.
static void foldScalarExtract(RewriterBase &rewriter, tensor::ExtractOp extract) {
  Value t = extract.getTensor();
  if (cast<RankedTensorType>(t.getType()).getRank() != 0)
    return;
  Block *home = extract->getBlock();
  // Generics using the scalar in their bodies, by the op of `home` they are.
  llvm::SetVector<Operation *> users;
  for (Operation *user : extract->getUsers())
    if (Operation *top = home->findAncestorOpInBlock(*user))
      users.insert(top);
  for (Operation *top : users) {
    auto g = dyn_cast<linalg::GenericOp>(top);
    if (g && g.hasPureTensorSemantics() &&
        llvm::any_of(extract->getUsers(),
                     [&](Operation *u) { return g->isProperAncestor(u); })) {
      auto [fresh, arg] = addScalarInput(rewriter, g, t);
      rewriter.replaceUsesWithIf(extract.getResult(), arg, [&](OpOperand &u) {
        return fresh->isProperAncestor(u.getOwner());
      });
      continue;
    }
    if (auto fill = dyn_cast<linalg::FillOp>(top);
        fill && fill.value() == extract.getResult() &&
        fill.hasPureTensorSemantics()) {
      // fill(s) outs(e) -> generic broadcasting t over e.
      Value out = fill.getDpsInits()[0];
      auto outType = cast<RankedTensorType>(out.getType());
      int64_t rank = outType.getRank();
      MLIRContext *ctx = rewriter.getContext();
      SmallVector<AffineMap> maps{
          AffineMap::get(rank, 0, ctx),
          AffineMap::getMultiDimIdentityMap(rank, ctx)};
      SmallVector<utils::IteratorType> iters(rank,
                                             utils::IteratorType::parallel);
      rewriter.setInsertionPoint(fill);
      auto g = linalg::GenericOp::create(
          rewriter, fill.getLoc(), TypeRange{outType}, ValueRange{t},
          ValueRange{out}, maps, iters,
          [&](OpBuilder &b, Location loc, ValueRange args) {
            Value v = args[0];
            if (v.getType() != outType.getElementType())
              v = convertScalarToDtype(b, loc, v, outType.getElementType(),
                                       /*isUnsignedCast=*/false);
            linalg::YieldOp::create(b, loc, v);
          });
      rewriter.replaceOp(fill, g->getResults());
    }
  }
  if (extract->use_empty())
    rewriter.eraseOp(extract);
}

/// Tensor constants from a module's resources (`dense_resource<name>`, as
/// torch-mlir and IREE import weights and tables) as the dense constants
/// they hold, so that every pipeline (the f64 reference too) and the
/// manifest see their values. A blob that is missing (elided) or does not
/// hold the type's bytes is an error.
static LogicalResult inlineResourceConstants(func::FuncOp func) {
  WalkResult r = func.walk([&](arith::ConstantOp op) {
    auto res = dyn_cast<DenseResourceElementsAttr>(op.getValue());
    if (!res)
      return WalkResult::advance();
    auto type = cast<ShapedType>(res.getType());
    Type elt = type.getElementType();
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob) {
      op.emitOpError("reads dense_resource<")
          << res.getRawHandle().getKey()
          << ">, whose data is not in the module (elided?)";
      return WalkResult::interrupt();
    }
    ArrayRef<char> data = blob->getData();
    int64_t n = type.getNumElements();
    int64_t bytes = elt.isIntOrFloat()
                        ? n * std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8)
                        : -1;
    if (!elt.isIntOrFloat() || (!elt.isInteger(1) &&
                                elt.getIntOrFloatBitWidth() % 8 != 0)) {
      op.emitOpError("reads a dense_resource of element type ")
          << elt << ", which memopt does not unpack";
      return WalkResult::interrupt();
    }
    if ((int64_t)data.size() != bytes) {
      op.emitOpError("reads dense_resource<")
          << res.getRawHandle().getKey() << "> of " << data.size()
          << " bytes where " << type << " needs " << bytes;
      return WalkResult::interrupt();
    }
    DenseElementsAttr dense;
    if (elt.isInteger(1)) {
      // One byte per bool in the blob; DenseElementsAttr packs bits.
      SmallVector<bool> bools;
      for (char c : data)
        bools.push_back(c != 0);
      dense = DenseElementsAttr::get(type, bools);
    } else {
      dense = DenseElementsAttr::getFromRawBuffer(type, data);
    }
    op.setValueAttr(dense);
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

namespace {
struct MemoptNormalizeFrontendFormsPass final
    : memopt::impl::MemoptNormalizeFrontendFormsPassBase<
          MemoptNormalizeFrontendFormsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    if (failed(inlineResourceConstants(func)))
      return signalPassFailure();
    // alloc_tensor without a copy: an empty tensor.
    SmallVector<bufferization::AllocTensorOp> allocs;
    func.walk([&](bufferization::AllocTensorOp op) {
      if (!op.getCopy() && !op.getSizeHint() && !op.getMemorySpaceAttr())
        allocs.push_back(op);
    });
    for (bufferization::AllocTensorOp op : allocs) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          op, op.getType().getShape(), op.getType().getElementType(),
          op.getDynamicSizes());
    }
    // Scalars into 0-d tensors: fills.
    SmallVector<Operation *> scalarsIn;
    func.walk([&](Operation *op) {
      if (auto from = dyn_cast<tensor::FromElementsOp>(op);
          from && from.getType().getRank() == 0)
        scalarsIn.push_back(op);
      if (auto ins = dyn_cast<tensor::InsertOp>(op);
          ins && ins.getDest().getType().getRank() == 0)
        scalarsIn.push_back(op);
    });
    for (Operation *op : scalarsIn) {
      rewriter.setInsertionPoint(op);
      Value scalar = op->getOperand(0);
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      rewriter.replaceOp(op, createFill(rewriter, op->getLoc(), scalar, type));
    }
    SmallVector<arith::ConstantOp> splats;
    func.walk([&](arith::ConstantOp op) {
      if (isa<RankedTensorType>(op.getType()))
        splats.push_back(op);
    });
    for (arith::ConstantOp op : splats)
      foldSplat(rewriter, op);
    SmallVector<tensor::ExtractOp> extracts;
    func.walk([&](tensor::ExtractOp op) {
      if (op.getTensor().getType().getRank() == 0)
        extracts.push_back(op);
    });
    for (tensor::ExtractOp op : extracts)
      foldScalarExtract(rewriter, op);
  }
};
} // namespace

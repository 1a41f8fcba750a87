//===- CheckInputContract.cpp - reject unsupported input ----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-check-input-contract, which turns every
// construct outside the tensor-level input contract into an error that names
// the op, instead of a crash or a silent miscompile later on.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTCHECKINPUTCONTRACTPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

static bool isSupportedElementType(Type t) {
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t))
    return true;
  if (auto i = dyn_cast<IntegerType>(t))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth()) ||
           getSubBytePackFactor(i);
  return false;
}

/// A tensor of i2/i4, which is stored packed (memopt-pack-sub-byte-integers).
static bool isPackedTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && getSubBytePackFactor(tensor.getElementType());
}

/// Checks one value type; returns a description of the problem or "".
static std::string checkType(Type t, bool allowScalar) {
  if (allowScalar && isSupportedElementType(t))
    return "";
  if (isa<IndexType>(t) && allowScalar)
    return "";
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor)
    return "only statically shaped ranked tensors are supported";
  if (!tensor.hasStaticShape())
    return "dynamic shapes are not supported";
  if (tensor.getEncoding())
    return "tensor encodings are not supported";
  if (!isSupportedElementType(tensor.getElementType()))
    return "element type is not one of f16, bf16, f32, f64, i1, i2, i4, i8, "
           "i16, i32, i64";
  if (isPackedTensor(tensor) && !getPackedStorageType(tensor))
    return "an i2/i4 tensor is stored packed along its innermost dim, which "
           "must then be a multiple of " +
           std::to_string(getSubBytePackFactor(tensor.getElementType()));
  return "";
}

/// i2/i4 tensors exist only as function arguments (stored packed) and their
/// reshapes, read by linalg ops: anything else that makes one is refused.
static LogicalResult checkPackedResults(Operation *op) {
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return success();
  for (Type t : op->getResultTypes())
    if (isPackedTensor(t))
      return op->emitOpError("produces a ")
             << t << "; i2/i4 tensors are supported only as function inputs "
             << "(stored packed) and reshapes of them";
  return success();
}

/// True if every result of `map` is a distinct loop dim or a constant.
static bool isPermutationOrConstant(AffineMap map) {
  llvm::SmallBitVector seen(map.getNumDims());
  for (AffineExpr e : map.getResults()) {
    if (isa<AffineConstantExpr>(e))
      continue;
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || seen.test(d.getPosition()))
      return false;
    seen.set(d.getPosition());
  }
  return true;
}

static LogicalResult checkBodyOp(Operation *op) {
  Dialect *d = op->getDialect();
  StringRef ns = d ? d->getNamespace() : "";
  if (ns == "arith" || ns == "math" || isa<linalg::YieldOp, linalg::IndexOp>(op))
    return success();
  return op->emitOpError("is not supported in a linalg body (only arith and "
                         "math ops are)");
}

/// Slices and assemblies memopt-fold-slices turns into generics: static
/// offsets, sizes and strides (unit strides where a slice is inserted).
static LogicalResult checkSliceOp(Operation *op) {
  auto sliced = dyn_cast<OffsetSizeAndStrideOpInterface>(op);
  if (!sliced)
    return success();
  if (ShapedType::isDynamicShape(sliced.getStaticOffsets()) ||
      ShapedType::isDynamicShape(sliced.getStaticSizes()) ||
      ShapedType::isDynamicShape(sliced.getStaticStrides()))
    return op->emitOpError("has dynamic offsets, sizes or strides; the input "
                           "contract takes static slices only");
  if (isa<tensor::InsertSliceOp>(op) &&
      llvm::any_of(sliced.getStaticStrides(),
                   [](int64_t s) { return s != 1; }))
    return op->emitOpError("inserts with strides other than 1; the input "
                           "contract takes unit-stride inserts only");
  return success();
}

/// A non-splat tensor constant is placed in the PTX of the kernels that
/// read it, as initialized global data written out digit by digit: one of
/// more than `maxBytes` (16 MiB by default) would make a PTX file of
/// hundreds of MiB for ptxas and the driver to parse, so it is refused.
static LogicalResult checkConstant(arith::ConstantOp cst, int64_t maxBytes) {
  auto type = dyn_cast<RankedTensorType>(cst.getType());
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!type || !type.hasStaticShape() || !dense || dense.isSplat() ||
      !type.getElementType().isIntOrFloat())
    return success();
  int64_t bytes = type.getNumElements() *
                  std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  if (bytes <= maxBytes)
    return success();
  return cst.emitOpError("is a non-splat constant of ")
         << bytes << " bytes, more than the " << maxBytes
         << " bytes memopt places in the kernels' PTX "
            "(max-constant-bytes); pass it to the function as an argument";
}

static LogicalResult checkOp(Operation *op, int64_t maxConstantBytes) {
  if (failed(checkPackedResults(op)))
    return failure();
  if (auto cst = dyn_cast<arith::ConstantOp>(op);
      cst && failed(checkConstant(cst, maxConstantBytes)))
    return failure();
  if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op) &&
      failed(checkSliceOp(op)))
    return failure();
  if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::ConcatOp,
          tensor::PadOp>(op) &&
      llvm::any_of(llvm::concat<const Type>(op->getOperandTypes(),
                                            op->getResultTypes()),
                   [](Type t) {
                     auto rt = dyn_cast<RankedTensorType>(t);
                     return rt && llvm::is_contained(rt.getShape(), 0);
                   }))
    return op->emitOpError("slices or assembles a tensor with a zero-size "
                           "dim; the input contract takes non-empty slices "
                           "only");
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !matchPattern(padValue, m_Constant()))
      return op->emitOpError("pads with a value that is not a constant; the "
                             "input contract takes constant padding only");
    if (ShapedType::isDynamicShape(pad.getStaticLow()) ||
        ShapedType::isDynamicShape(pad.getStaticHigh()))
      return op->emitOpError("has dynamic padding; the input contract takes "
                             "static padding only");
  }
  if (isa<func::ReturnOp, tensor::EmptyOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp, tensor::ExtractSliceOp,
          tensor::InsertSliceOp, tensor::ConcatOp, tensor::PadOp,
          arith::ConstantOp>(op) ||
      isa<linalg::LinalgOp, linalg::SoftmaxOp>(op)) {
    for (Type t : op->getOperandTypes())
      if (std::string why = checkType(t, /*allowScalar=*/true); !why.empty())
        return op->emitOpError("has an unsupported operand: ") << why;
    for (Type t : op->getResultTypes())
      if (std::string why = checkType(t, /*allowScalar=*/true); !why.empty())
        return op->emitOpError("has an unsupported result: ") << why;
  } else if (op->getDialect() && (op->getDialect()->getNamespace() == "arith" ||
                                  op->getDialect()->getNamespace() == "math")) {
    // Scalar arithmetic between ops (e.g. constants folded by a frontend).
    for (Type t : op->getResultTypes())
      if (!isSupportedElementType(t) && !isa<IndexType>(t))
        return op->emitOpError("is outside the input contract: only scalar "
                               "arith/math ops may appear outside linalg");
    return success();
  } else {
    return op->emitOpError("is outside memopt's input contract (linalg on "
                           "static tensors, tensor.empty/expand_shape/"
                           "collapse_shape/extract_slice/insert_slice/concat/pad, "
                           "arith, math)");
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics())
      return op->emitOpError("operates on memrefs; the tensor-level pipeline "
                             "needs tensor semantics");
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      for (AffineMap map : generic.getIndexingMapsArray())
        if (!isPermutationOrConstant(map))
          return op->emitOpError("has an indexing map that is neither a "
                                 "projected permutation nor constant-index: ")
                 << AffineMapAttr::get(map);
    }
    for (Region &r : op->getRegions())
      for (Operation &inner : r.getOps())
        if (failed(checkBodyOp(&inner)))
          return failure();
  }
  return success();
}

namespace {
struct MemoptCheckInputContractPass final
    : memopt::impl::MemoptCheckInputContractPassBase<MemoptCheckInputContractPass> {
  using Base::Base;
  void runOnOperation() override {
    bool failedAny = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (Type t : func.getFunctionType().getInputs())
        if (std::string why = checkType(t, false); !why.empty()) {
          func.emitOpError("has an unsupported argument type ") << t << ": "
                                                                << why;
          failedAny = true;
        }
      for (Type t : func.getFunctionType().getResults())
        if (isPackedTensor(t)) {
          func.emitOpError("has a result of type ")
              << t << "; i2/i4 tensors are supported only as function "
              << "inputs (stored packed)";
          failedAny = true;
        } else if (std::string why = checkType(t, false); !why.empty()) {
          func.emitOpError("has an unsupported result type ") << t << ": "
                                                              << why;
          failedAny = true;
        }
      if (!func.getBody().hasOneBlock()) {
        func.emitOpError("must have a single block");
        failedAny = true;
        continue;
      }
      for (Operation &op : func.getBody().front())
        if (failed(checkOp(&op, maxConstantBytes)))
          failedAny = true;
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace

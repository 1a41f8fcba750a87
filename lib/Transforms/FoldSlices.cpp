//===- FoldSlices.cpp - slices and concatenations as indexing maps -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-fold-slices: the tensor slicing and assembly
// ops frontends emit (torch-mlir's narrow/chunk/split and cat, a fused QKV
// projection split into q, k and v, NeoX rotary's rotate_half) become
// linalg.generic ops and indexing maps, which kernel formation fuses like
// any other elementwise op:
//   - tensor.extract_slice (static offsets, sizes and strides, rank-reducing
//     or not): each linalg.generic reading the slice reads its source
//     instead, through the slice's map composed with its own (source dim j
//     at offset_j + stride_j * i, a dropped dim at offset_j); any other use
//     reads a copy generic built the same way;
//   - tensor.concat: one generic over the result whose element selects,
//     by its index along the concatenated dim, the piece it lies in; piece
//     p (at offset o, n long) is read at (i + c) mod n, c = n * ceil(o / n)
//     - o, which is i - o inside the piece and some element of the piece
//     elsewhere (in bounds, unused);
//   - tensor.pad by a constant (F.pad): the source inserted into a fill;
//   - tensor.expand_shape of a slice splitting a sliced dim whose offset
//     and extent are multiples of the slice's size (split then view): a
//     slice of the reshaped source;
//   - tensor.insert_slice with unit strides: one generic over the
//     destination selecting the source inside the slice's box (read the
//     same way) and the destination outside it; into a tensor.empty, the
//     source alone (the rest is undefined there anyway).
// Values are unchanged. Dynamic shapes, offsets or strides and
// insert_slice with strides other than 1 are left for the input contract
// check to name.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTFOLDSLICESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// The map from a static extract_slice's result indices to its source's,
/// or null when some offset, size or stride is dynamic.
static AffineMap getSliceMap(tensor::ExtractSliceOp slice) {
  if (!slice.getSourceType().hasStaticShape() ||
      !slice.getType().hasStaticShape())
    return AffineMap();
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  if (ShapedType::isDynamicShape(offsets) ||
      ShapedType::isDynamicShape(strides))
    return AffineMap();
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  MLIRContext *ctx = slice.getContext();
  unsigned rank = slice.getType().getRank();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  SmallVector<AffineExpr> results;
  unsigned r = 0;
  for (unsigned j = 0, e = offsets.size(); j < e; ++j) {
    if (dropped.test(j)) {
      results.push_back(getAffineConstantExpr(offsets[j], ctx));
      continue;
    }
    AffineExpr d = getAffineDimExpr(r++, ctx);
    // A leading part of a dim (x[..., :n]) read through a plain dim would
    // give the loop the source's extent (linalg infers loop ranges from
    // plain dims): d mod n is d on the slice and not a plain dim.
    if (offsets[j] == 0 && strides[j] == 1 &&
        sizes[j] < slice.getSourceType().getDimSize(j))
      results.push_back(d % sizes[j]);
    else
      results.push_back(d * strides[j] + offsets[j]);
  }
  if (r != rank)
    return AffineMap();
  return AffineMap::get(rank, 0, results, ctx);
}

/// A reshape of a slice as a slice of a reshape: `expand_shape(x[.., o:o+n,
/// ..])` splitting the sliced dim into (s_1, ..., s_k) is
/// `expand_shape(x)[.., o / n, 0.., ..]` with x's dim split into (N / n,
/// s_1, ..., s_k) and the slice's dim dropped, when o and N are multiples of
/// n (a fused QKV projection split with `split(HD, -1)`, then `view(T, H,
/// D)`). The slice then folds into its readers like any other.
static void swapExpandOfSlice(RewriterBase &rewriter,
                              tensor::ExpandShapeOp expand) {
  auto slice = expand.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !getSliceMap(slice) || !expand.getResultType().hasStaticShape())
    return;
  RankedTensorType srcType = slice.getSourceType();
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  ArrayRef<int64_t> outShape = expand.getResultType().getShape();
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
  // The reshaped source, its reassociation, and the new slice.
  SmallVector<int64_t> newShape;
  SmallVector<ReassociationIndices> newGroups;
  SmallVector<int64_t> newOffsets, newSizes, newStrides;
  unsigned r = 0;
  for (unsigned j = 0, e = srcType.getRank(); j < e; ++j) {
    ReassociationIndices group;
    auto keep = [&](int64_t shape, int64_t offset, int64_t size,
                    int64_t stride) {
      group.push_back(newShape.size());
      newShape.push_back(shape);
      newOffsets.push_back(offset);
      newSizes.push_back(size);
      newStrides.push_back(stride);
    };
    if (dropped.test(j)) {
      keep(srcType.getDimSize(j), offsets[j], 1, 1);
      newGroups.push_back(group);
      continue;
    }
    ReassociationIndices &outDims = groups[r++];
    if (outDims.size() == 1) {
      keep(srcType.getDimSize(j), offsets[j], sizes[j], strides[j]);
      newGroups.push_back(group);
      continue;
    }
    int64_t n = sizes[j], full = srcType.getDimSize(j);
    if (strides[j] != 1 || offsets[j] % n != 0 || full % n != 0)
      return;
    if (full != n)
      keep(full / n, offsets[j] / n, 1, 1);
    for (int64_t d : outDims)
      keep(outShape[d], 0, outShape[d], 1);
    newGroups.push_back(group);
  }
  rewriter.setInsertionPoint(expand);
  Location loc = expand.getLoc();
  auto newType = RankedTensorType::get(newShape, srcType.getElementType());
  Value reshaped = tensor::ExpandShapeOp::create(
      rewriter, loc, newType, slice.getSource(), newGroups);
  SmallVector<OpFoldResult> o, z, st;
  for (auto [a, b, c] : llvm::zip(newOffsets, newSizes, newStrides)) {
    o.push_back(rewriter.getIndexAttr(a));
    z.push_back(rewriter.getIndexAttr(b));
    st.push_back(rewriter.getIndexAttr(c));
  }
  rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
      expand, expand.getResultType(), reshaped, o, z, st);
  if (slice->use_empty())
    rewriter.eraseOp(slice);
}

/// A generic over `type` whose inputs are `inputs` read through `maps`,
/// yielding what `body` builds from the block arguments and the indices.
static Value
buildGeneric(OpBuilder &b, Location loc, RankedTensorType type,
             ValueRange inputs, ArrayRef<AffineMap> maps,
             function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  unsigned rank = type.getRank();
  SmallVector<AffineMap> all(maps);
  all.push_back(AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto g = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{empty}, all, iters,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return g.getResult(0);
}

/// The index expression reading a piece `size` long placed at `offset` of
/// a dim walked by `d`: d - offset inside the piece, in bounds elsewhere.
static AffineExpr getPieceIndex(AffineExpr d, int64_t offset, int64_t size,
                                int64_t dimSize) {
  if (offset == 0 && size == dimSize)
    return d;
  int64_t c = llvm::divideCeil(offset, size) * size - offset;
  return (d + c) % size;
}

/// Reads of `slice` by linalg.generic inputs read its source instead;
/// other uses read a copy. Returns false when the slice is dynamic.
static bool foldExtractSlice(RewriterBase &rewriter,
                             tensor::ExtractSliceOp slice) {
  AffineMap sliceMap = getSliceMap(slice);
  if (!sliceMap)
    return false;
  Value source = slice.getSource();
  for (OpOperand &use : llvm::make_early_inc_range(slice->getUses())) {
    auto g = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!g || !g.isDpsInput(&use))
      continue;
    SmallVector<AffineMap> maps = g.getIndexingMapsArray();
    unsigned i = use.getOperandNumber();
    maps[i] = simplifyAffineMap(sliceMap.compose(maps[i]));
    // Linalg infers the loop ranges from operands indexed by plain dims: a
    // loop only the slice walked (a reduction over a slice's dim) keeps
    // reading the copy.
    if (!inversePermutation(concatAffineMaps(maps, rewriter.getContext())))
      continue;
    rewriter.modifyOpInPlace(g, [&] {
      use.set(source);
      g.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
  }
  if (slice->use_empty()) {
    rewriter.eraseOp(slice);
    return true;
  }
  rewriter.setInsertionPoint(slice);
  Value copy = buildGeneric(
      rewriter, slice.getLoc(), slice.getType(), {source},
      {simplifyAffineMap(sliceMap)},
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  rewriter.replaceOp(slice, copy);
  // The copy reads the slice's source through the map: fold it on.
  return true;
}

/// `i` in [lo, hi) as an i1, for the index `idx`.
static Value buildInRange(OpBuilder &b, Location loc, Value idx, int64_t lo,
                          int64_t hi, int64_t dimSize) {
  Value inside;
  if (lo > 0)
    inside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, idx,
        arith::ConstantIndexOp::create(b, loc, lo));
  if (hi < dimSize) {
    Value below = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, idx,
        arith::ConstantIndexOp::create(b, loc, hi));
    inside = inside ? arith::AndIOp::create(b, loc, inside, below).getResult()
                    : below;
  }
  return inside;
}

/// Pieces of an assembly computed by all-parallel generics used only there
/// (-x2 in rotate_half) are computed inside it, reading their inputs
/// through the composed maps: one op over the assembled space, which
/// kernel formation keeps in one kernel with its readers.
static void fusePieces(RewriterBase &rewriter, Value assembled) {
  for (bool changed = true; changed;) {
    changed = false;
    auto g = assembled.getDefiningOp<linalg::GenericOp>();
    if (!g)
      return;
    for (OpOperand *in : g.getDpsInputOperands()) {
      auto producer = in->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse() ||
          producer.getNumParallelLoops() != producer.getNumLoops() ||
          !linalg::areElementwiseOpsFusable(in))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, in);
      if (failed(fused))
        continue;
      Value result = g.getResult(0);
      for (auto [orig, repl] : fused->replacements) {
        if (orig == result)
          assembled = repl;
        rewriter.replaceUsesWithIf(orig, repl, [&](OpOperand &use) {
          return use.getOwner() != producer.getOperation();
        });
      }
      rewriter.eraseOp(g);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      changed = true;
      break;
    }
  }
}

static void foldConcat(RewriterBase &rewriter, tensor::ConcatOp concat) {
  auto type = cast<RankedTensorType>(concat.getType());
  int64_t dim = concat.getDim();
  unsigned rank = type.getRank();
  MLIRContext *ctx = concat.getContext();
  SmallVector<AffineMap> maps;
  SmallVector<int64_t> starts;
  int64_t offset = 0;
  for (Value piece : concat.getInputs()) {
    int64_t size = cast<RankedTensorType>(piece.getType()).getDimSize(dim);
    SmallVector<AffineExpr> results;
    for (unsigned j = 0; j < rank; ++j)
      results.push_back(j == dim ? getPieceIndex(getAffineDimExpr(j, ctx),
                                                 offset, size,
                                                 type.getDimSize(dim))
                                 : getAffineDimExpr(j, ctx));
    maps.push_back(AffineMap::get(rank, 0, results, ctx));
    starts.push_back(offset);
    offset += size;
  }
  rewriter.setInsertionPoint(concat);
  Value result = buildGeneric(
      rewriter, concat.getLoc(), type, concat.getInputs(), maps,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value idx = linalg::IndexOp::create(b, loc, dim);
        Value v = args[starts.size() - 1];
        for (int64_t p = (int64_t)starts.size() - 2; p >= 0; --p) {
          Value before = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, idx,
              arith::ConstantIndexOp::create(b, loc, starts[p + 1]));
          v = arith::SelectOp::create(b, loc, before, args[p], v);
        }
        return v;
      });
  rewriter.replaceOp(concat, result);
  fusePieces(rewriter, result);
}

/// Returns false when the insert is dynamic or strided.
static bool foldInsertSlice(RewriterBase &rewriter,
                            tensor::InsertSliceOp insert) {
  RankedTensorType type = insert.getDestType();
  RankedTensorType srcType = insert.getSourceType();
  ArrayRef<int64_t> offsets = insert.getStaticOffsets();
  ArrayRef<int64_t> sizes = insert.getStaticSizes();
  if (!type.hasStaticShape() || !srcType.hasStaticShape() ||
      ShapedType::isDynamicShape(offsets) ||
      ShapedType::isDynamicShape(sizes) ||
      llvm::any_of(insert.getStaticStrides(),
                   [](int64_t s) { return s != 1; }))
    return false;
  // Dest dims the source does not have (unit sizes of a rank-reducing
  // insert) take no part in the source's index.
  llvm::SmallBitVector dropped = insert.getDroppedDims();
  unsigned rank = type.getRank();
  MLIRContext *ctx = insert.getContext();
  SmallVector<AffineExpr> results;
  unsigned r = 0;
  for (unsigned j = 0; j < rank; ++j) {
    if (dropped.test(j))
      continue;
    results.push_back(getPieceIndex(getAffineDimExpr(j, ctx), offsets[j],
                                    sizes[j], type.getDimSize(j)));
    ++r;
  }
  if (r != srcType.getRank())
    return false;
  AffineMap srcMap = AffineMap::get(rank, 0, results, ctx);
  Value dest = insert.getDest();
  bool undefinedRest = dest.getDefiningOp<tensor::EmptyOp>() != nullptr;
  // Into a constant fill (padding): the constant, not a read of the fill.
  Attribute fillValue = getFillConstant(dest);
  SmallVector<Value> inputs = {insert.getSource()};
  SmallVector<AffineMap> maps = {srcMap};
  if (!undefinedRest && !fillValue) {
    inputs.push_back(dest);
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  }
  rewriter.setInsertionPoint(insert);
  Value result = buildGeneric(
      rewriter, insert.getLoc(), type, inputs, maps,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        if (undefinedRest)
          return args[0];
        Value inside;
        for (unsigned j = 0; j < rank; ++j) {
          Value idx = linalg::IndexOp::create(b, loc, j);
          Value in = buildInRange(b, loc, idx, offsets[j],
                                  offsets[j] + sizes[j], type.getDimSize(j));
          if (in)
            inside = inside ? arith::AndIOp::create(b, loc, inside, in)
                                  .getResult()
                            : in;
        }
        if (!inside)
          return args[0];
        Value outside =
            fillValue ? arith::ConstantOp::create(
                            b, loc, cast<TypedAttr>(fillValue))
                            .getResult()
                      : args[1];
        return arith::SelectOp::create(b, loc, inside, args[0], outside)
            .getResult();
      });
  rewriter.replaceOp(insert, result);
  fusePieces(rewriter, result);
  return true;
}

/// A static tensor.pad by a constant: the source inserted into a fill of
/// the padding value. Returns false otherwise.
static bool foldPad(RewriterBase &rewriter, tensor::PadOp pad) {
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue || !pad.getResultType().hasStaticShape() ||
      !pad.getSourceType().hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()))
    return false;
  rewriter.setInsertionPoint(pad);
  Location loc = pad.getLoc();
  if (pad.getRegion().isAncestor(padValue.getParentRegion()))
    padValue = rewriter.clone(*padValue.getDefiningOp())->getResult(0);
  RankedTensorType type = pad.getResultType();
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                              type.getElementType());
  Value fill =
      linalg::FillOp::create(rewriter, loc, padValue, empty).getResult(0);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (auto [low, size] :
       llvm::zip(pad.getStaticLow(), pad.getSourceType().getShape())) {
    offsets.push_back(rewriter.getIndexAttr(low));
    sizes.push_back(rewriter.getIndexAttr(size));
    strides.push_back(rewriter.getIndexAttr(1));
  }
  auto insert = tensor::InsertSliceOp::create(rewriter, loc, pad.getSource(),
                                              fill, offsets, sizes, strides);
  rewriter.replaceOp(pad, insert.getResult());
  return foldInsertSlice(rewriter, insert);
}

namespace {
struct MemoptFoldSlicesPass final
    : memopt::impl::MemoptFoldSlicesPassBase<MemoptFoldSlicesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    // Constant padding: an insert into a fill.
    SmallVector<tensor::PadOp> pads;
    func.walk([&](tensor::PadOp op) { pads.push_back(op); });
    for (tensor::PadOp pad : pads)
      foldPad(rewriter, pad);
    // Assemblies first: their generics read the pieces, which may be
    // slices folded next.
    SmallVector<Operation *> assemblies;
    func.walk([&](Operation *op) {
      if (isa<tensor::ConcatOp, tensor::InsertSliceOp>(op))
        assemblies.push_back(op);
    });
    for (Operation *op : assemblies) {
      if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
        if (concat.getType().hasStaticShape() &&
            llvm::all_of(concat.getInputs(), [](Value v) {
              return cast<RankedTensorType>(v.getType()).hasStaticShape();
            }))
          foldConcat(rewriter, concat);
      } else {
        foldInsertSlice(rewriter, cast<tensor::InsertSliceOp>(op));
      }
    }
    // Reshapes of slices: slices of reshapes.
    SmallVector<tensor::ExpandShapeOp> expands;
    func.walk([&](tensor::ExpandShapeOp op) { expands.push_back(op); });
    for (tensor::ExpandShapeOp op : expands)
      swapExpandOfSlice(rewriter, op);
    // Later slices first: a slice of a slice is then read through the
    // composed maps when the outer one folds.
    SmallVector<tensor::ExtractSliceOp> slices;
    func.walk([&](tensor::ExtractSliceOp op) { slices.push_back(op); });
    for (tensor::ExtractSliceOp slice : llvm::reverse(slices))
      foldExtractSlice(rewriter, slice);
  }
};
} // namespace

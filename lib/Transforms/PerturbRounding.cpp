//===- PerturbRounding.cpp - Monte Carlo arithmetic reference --*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-perturb-rounding: the perturbed CPU reference.
// Every rounding float operation of a generic's body is followed by a
// random relative perturbation of at most the unit roundoff of its type
// (random rounding in the sense of Monte Carlo arithmetic, Parker 1997;
// Verificarlo's "rr" mode). The randomness is a hash, so an evaluation is
// a pure function of the seed and the inputs; several seeds give several
// evaluations whose spread around the f64 reference is how far a correct
// evaluation of the program in its own precision may land, whatever the
// order of its reductions. The pairwise evaluation gives one such sample,
// which on sums that cancel can be far closer to f64 than another correct
// order (the column kernels' tree): the verdicts take the spread too.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTPERTURBROUNDINGPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

static constexpr StringLiteral kSeedName = "memopt_rounding_seed";

/// Whether `op`'s result is a rounding of its exact value: arithmetic,
/// conversions into a float type and the math functions, but not the
/// operations whose results are exact (sign, magnitude, integral parts).
static bool isRounding(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  auto t = dyn_cast<FloatType>(op->getResult(0).getType());
  if (!t || !(t.isF16() || t.isBF16() || t.isF32()))
    return false;
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::RemFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(
          op))
    return true;
  if (op->getDialect() && isa<math::MathDialect>(op->getDialect()))
    return !isa<math::AbsFOp, math::CopySignOp, math::FloorOp, math::CeilOp,
                math::RoundOp, math::RoundEvenOp, math::TruncOp>(op);
  return false;
}

/// splitmix64's finalizer on `h`.
static Value mix(OpBuilder &b, Location loc, Value h) {
  auto c = [&](uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr((int64_t)v));
  };
  auto xorShift = [&](Value x, unsigned s) {
    return arith::XOrIOp::create(b, loc, x,
                                 arith::ShRUIOp::create(b, loc, x, c(s)));
  };
  h = arith::MulIOp::create(b, loc, xorShift(h, 30), c(0xBF58476D1CE4E5B9ULL));
  h = arith::MulIOp::create(b, loc, xorShift(h, 27), c(0x94D049BB133111EBULL));
  return xorShift(h, 31);
}

/// The hash of `seed` and a generic's loop indices, once per element.
static Value hashIndices(OpBuilder &b, Location loc, Value seed,
                         ArrayRef<Value> indices) {
  Value h = seed;
  for (Value idx : indices)
    h = mix(b, loc,
            arith::XOrIOp::create(
                b, loc, h,
                arith::IndexCastUIOp::create(b, loc, b.getI64Type(), idx)));
  return h;
}

/// `r` * (1 + u * xi) in f64, rounded back to r's type; xi in [-1, 1) from
/// the hash of `element` (hashIndices), `id` and r's bits. A zero seed
/// keeps r.
static Value perturb(OpBuilder &b, Location loc, Value r, Value seed,
                     Value element, uint64_t id) {
  auto t = cast<FloatType>(r.getType());
  Type i64 = b.getI64Type();
  auto c = [&](uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr((int64_t)v));
  };
  Value bits = arith::ExtUIOp::create(
      b, loc, i64,
      arith::BitcastOp::create(b, loc, b.getIntegerType(t.getWidth()), r));
  Value h = mix(b, loc,
                arith::XOrIOp::create(
                    b, loc,
                    arith::XOrIOp::create(b, loc, element,
                                          c((id + 1) * 0x9E3779B97F4A7C15ULL)),
                    bits));
  // xi = (h >> 11) * 2^-52 - 1.
  Type f64 = b.getF64Type();
  auto f = [&](double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  };
  Value xi = arith::SubFOp::create(
      b, loc,
      arith::MulFOp::create(
          b, loc,
          arith::UIToFPOp::create(b, loc, f64,
                                  arith::ShRUIOp::create(b, loc, h, c(11))),
          f(0x1p-52)),
      f(1.0));
  double u = std::ldexp(1.0, -(int)t.getFPMantissaWidth());
  Value wide = arith::ExtFOp::create(b, loc, f64, r);
  Value scaled = arith::MulFOp::create(
      b, loc, wide,
      arith::AddFOp::create(b, loc, f(1.0),
                            arith::MulFOp::create(b, loc, f(u), xi)));
  // (16-bit types through f32: the host lowers f32 -> bf16 inline, and
  // f64 -> bf16 would call a runtime function the reference does not link.)
  Value back = scaled;
  if (!t.isF32())
    back = arith::TruncFOp::create(b, loc, b.getF32Type(), back);
  back = arith::TruncFOp::create(b, loc, t, back);
  Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, seed,
                                     c(0));
  return arith::SelectOp::create(b, loc, zero, r, back);
}

namespace {
struct MemoptPerturbRoundingPass
    : public memopt::impl::MemoptPerturbRoundingPassBase<
          MemoptPerturbRoundingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    if (SymbolTable::lookupSymbolIn(module, kSeedName)) {
      module.emitError("memopt-perturb-rounding: the module already defines ")
          << kSeedName;
      return signalPassFailure();
    }
    auto seedType = MemRefType::get({}, b.getI64Type());
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(
        b, module.getLoc(), kSeedName, b.getStringAttr("public"), seedType,
        DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                               b.getI64IntegerAttr(0)),
        /*constant=*/false, /*alignment=*/IntegerAttr());
    uint64_t id = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<linalg::GenericOp> generics;
      func.walk([&](linalg::GenericOp g) { generics.push_back(g); });
      if (generics.empty())
        continue;
      b.setInsertionPointToStart(&func.getBody().front());
      Location loc = func.getLoc();
      Value seed = memref::LoadOp::create(
          b, loc,
          memref::GetGlobalOp::create(b, loc, seedType, kSeedName),
          ValueRange{});
      for (linalg::GenericOp g : generics) {
        SmallVector<Operation *> rounding;
        g.getBody()->walk([&](Operation *op) {
          if (isRounding(op))
            rounding.push_back(op);
        });
        if (rounding.empty())
          continue;
        b.setInsertionPointToStart(g.getBody());
        SmallVector<Value> indices;
        for (unsigned d = 0; d < g.getNumLoops(); ++d)
          indices.push_back(linalg::IndexOp::create(b, g.getLoc(), d));
        Value element = hashIndices(b, g.getLoc(), seed, indices);
        for (Operation *op : rounding) {
          b.setInsertionPointAfter(op);
          Value r = op->getResult(0);
          SmallVector<OpOperand *> uses;
          for (OpOperand &use : r.getUses())
            uses.push_back(&use);
          Value p = perturb(b, op->getLoc(), r, seed, element, id++);
          for (OpOperand *use : uses)
            use->set(p);
        }
      }
    }
  }
};
} // namespace

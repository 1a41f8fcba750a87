//===- AccessPattern.cpp - per-lane address model of GPU accesses -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the lane address model declared in AccessPattern.h.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/AccessPattern.h"
#include "memopt/Analysis/Traffic.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// An integer value across the lanes of one warp: lane[l] plus an affine
/// form over uniform symbols (the same for every lane).
struct LaneValue {
  std::array<int64_t, kLanes> lane{};
  /// (symbol, coefficient); symbols are lane-invariant unknowns.
  SmallVector<std::pair<unsigned, int64_t>, 2> terms;

  bool laneInvariant() const {
    return llvm::all_of(lane, [&](int64_t v) { return v == lane[0]; });
  }
  bool isConstant() const { return terms.empty() && laneInvariant(); }
};

/// Evaluates index computations of one kernel for the lanes of warp 0.
class LaneEvaluator {
public:
  LaneEvaluator(Operation *kernel, std::array<int64_t, 3> blockDims,
                int64_t warp = 0)
      : kernel(kernel), blockDims(blockDims), warp(warp) {}

  FailureOr<LaneValue> eval(Value v, std::string &why);
  /// Divisibility of a value's uniform part (gcd over its terms), 0 when
  /// it has none.
  int64_t uniformDivisibility(const LaneValue &v) const {
    int64_t g = 0;
    for (auto [s, c] : v.terms)
      g = std::gcd(g, std::abs(c) * symbolDiv[s]);
    return g;
  }
  int64_t activeLanes() const {
    return std::clamp<int64_t>(
        blockDims[0] * blockDims[1] * blockDims[2] - warp * kLanes, 0,
        kLanes);
  }

private:
  /// A new uniform unknown: a multiple of `divisibility` in [0, maxValue]
  /// (maxValue < 0: no known bound; symbols are never negative).
  LaneValue freshSymbol(int64_t divisibility, int64_t maxValue = -1) {
    LaneValue r;
    r.terms.push_back({(unsigned)symbolDiv.size(), 1});
    symbolDiv.push_back(std::max<int64_t>(1, divisibility));
    symbolMax.push_back(maxValue);
    return r;
  }
  /// Largest value over the lanes and the symbols' ranges, if bounded.
  std::optional<int64_t> maxOf(const LaneValue &v) const {
    int64_t m = *llvm::max_element(v.lane);
    for (auto [s, c] : v.terms) {
      if (c < 0 || symbolMax[s] < 0)
        return std::nullopt;
      m += c * symbolMax[s];
    }
    return m;
  }
  /// Upper bound of a grid or loop size value, or -1.
  static int64_t constantOr(Value v, int64_t fallback) {
    APInt c;
    if (v && matchPattern(v, m_ConstantInt(&c)))
      return c.getSExtValue();
    return fallback;
  }
  static LaneValue constant(int64_t c) {
    LaneValue r;
    r.lane.fill(c);
    return r;
  }
  LaneValue add(const LaneValue &a, const LaneValue &b, int64_t sign = 1) {
    LaneValue r = a;
    for (int64_t l = 0; l < kLanes; ++l)
      r.lane[l] += sign * b.lane[l];
    for (auto [s, c] : b.terms) {
      auto it = llvm::find_if(r.terms, [&](auto &t) { return t.first == s; });
      if (it != r.terms.end())
        it->second += sign * c;
      else
        r.terms.push_back({s, sign * c});
    }
    llvm::erase_if(r.terms, [](auto &t) { return t.second == 0; });
    return r;
  }
  static LaneValue scale(const LaneValue &a, int64_t k) {
    LaneValue r = a;
    for (int64_t &x : r.lane)
      x *= k;
    for (auto &t : r.terms)
      t.second *= k;
    if (k == 0)
      r.terms.clear();
    return r;
  }
  FailureOr<LaneValue> evalOp(Operation *op, Value v, std::string &why);
  FailureOr<LaneValue> evalAffine(AffineExpr e, ArrayRef<LaneValue> dims,
                                  ArrayRef<LaneValue> syms, std::string &why);
  FailureOr<LaneValue> divOrRem(const LaneValue &a, const LaneValue &b,
                                bool isRem, std::string &why);
  FailureOr<LaneValue> bitwise(const LaneValue &a, const LaneValue &b,
                               Operation *op, std::string &why);
  LaneValue threadId(gpu::Dimension d) {
    LaneValue r;
    for (int64_t l = 0; l < kLanes; ++l) {
      int64_t t = warp * kLanes + l;
      int64_t x = t % blockDims[0];
      int64_t y = (t / blockDims[0]) % blockDims[1];
      int64_t z = t / (blockDims[0] * blockDims[1]);
      r.lane[l] = d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
    }
    return r;
  }

  Operation *kernel;
  std::array<int64_t, 3> blockDims;
  /// The warp of the block whose lanes are evaluated.
  int64_t warp;
  DenseMap<Value, LaneValue> cache;
  SmallVector<int64_t> symbolDiv;
  SmallVector<int64_t> symbolMax;
};
} // namespace

FailureOr<LaneValue> LaneEvaluator::eval(Value v, std::string &why) {
  auto it = cache.find(v);
  if (it != cache.end())
    return it->second;
  FailureOr<LaneValue> r = failure();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto launch = dyn_cast<gpu::LaunchOp>(parent)) {
      gpu::KernelDim3 tids = launch.getThreadIds();
      gpu::KernelDim3 bids = launch.getBlockIds();
      if (v == tids.x)
        r = threadId(gpu::Dimension::x);
      else if (v == tids.y)
        r = threadId(gpu::Dimension::y);
      else if (v == tids.z)
        r = threadId(gpu::Dimension::z);
      else if (v == bids.x)
        r = freshSymbol(1, constantOr(launch.getGridSizeX(), 0) - 1);
      else if (v == bids.y)
        r = freshSymbol(1, constantOr(launch.getGridSizeY(), 0) - 1);
      else if (v == bids.z)
        r = freshSymbol(1, constantOr(launch.getGridSizeZ(), 0) - 1);
      else if (v == launch.getBlockSize().x)
        r = constant(blockDims[0]);
      else if (v == launch.getBlockSize().y)
        r = constant(blockDims[1]);
      else if (v == launch.getBlockSize().z)
        r = constant(blockDims[2]);
      else
        r = freshSymbol(1); // grid sizes: uniform
    } else if (auto forOp = dyn_cast<scf::ForOp>(parent);
               forOp && v == forOp.getInductionVar()) {
      // iv = lb + step * k for an unknown trip k >= 0.
      FailureOr<LaneValue> lb = eval(forOp.getLowerBound(), why);
      FailureOr<LaneValue> step = eval(forOp.getStep(), why);
      if (failed(lb) || failed(step))
        return failure();
      if (!step->isConstant()) {
        if (!step->laneInvariant()) {
          why = "loop step differs between lanes";
          return failure();
        }
        r = add(*lb, freshSymbol(1));
      } else {
        // The trip index k is at most (ub - 1 - min lb) / step.
        int64_t ub = constantOr(forOp.getUpperBound(), -1);
        int64_t kMax = -1;
        int64_t st = step->lane[0];
        if (ub >= 0 && lb->terms.empty() && st > 0)
          kMax = std::max<int64_t>(
              0, (ub - 1 - *llvm::min_element(lb->lane)) / st);
        LaneValue k = freshSymbol(1, kMax);
        r = add(*lb, scale(k, st));
      }
    } else if (isa<FunctionOpInterface>(parent) || isa<gpu::GPUFuncOp>(parent)) {
      r = freshSymbol(1); // kernel arguments are uniform
    } else {
      why = "index is a block argument of " +
            parent->getName().getStringRef().str();
      return failure();
    }
  } else {
    r = evalOp(v.getDefiningOp(), v, why);
  }
  if (succeeded(r))
    cache[v] = *r;
  return r;
}

FailureOr<LaneValue> LaneEvaluator::divOrRem(const LaneValue &a,
                                             const LaneValue &b, bool isRem,
                                             std::string &why) {
  if (!b.isConstant() || b.lane[0] <= 0) {
    if (a.laneInvariant() && b.laneInvariant())
      return freshSymbol(1);
    why = "division by a value that is not a positive constant";
    return failure();
  }
  int64_t k = b.lane[0];
  // Values known to lie in [0, k): the remainder is the value, the
  // quotient zero.
  if (std::optional<int64_t> m = maxOf(a);
      m && *m < k && llvm::all_of(a.lane, [](int64_t x) { return x >= 0; }))
    return isRem ? a : constant(0);
  int64_t g = uniformDivisibility(a);
  if (a.terms.empty() || g % k == 0) {
    if (llvm::any_of(a.lane, [](int64_t x) { return x < 0; })) {
      why = "division of a negative lane value";
      return failure();
    }
    LaneValue r;
    for (int64_t l = 0; l < kLanes; ++l)
      r.lane[l] = isRem ? a.lane[l] % k : a.lane[l] / k;
    if (!isRem) {
      for (auto [s, c] : a.terms) {
        if (c % k == 0) {
          r.terms.push_back({s, c / k});
          continue;
        }
        // c * div(s) is a multiple of k: a new symbol for c * s / k.
        LaneValue q = freshSymbol(std::abs(c) * symbolDiv[s] / k);
        r = add(r, q);
      }
    }
    return r;
  }
  if (a.laneInvariant())
    return freshSymbol(1);
  // U a multiple of g = gcd(div(U), k) and lanes in [0, g): U mod k is a
  // multiple of g at most k - g, so adding a lane value never carries into
  // the quotient: (U + c) mod k = (U mod k) + c, (U + c) / k = U / k.
  int64_t gk = std::gcd(g, k);
  if (llvm::all_of(a.lane, [&](int64_t x) { return x >= 0 && x < gk; })) {
    if (!isRem)
      return freshSymbol(1);
    LaneValue r = freshSymbol(gk, k - gk);
    r.lane = a.lane;
    return r;
  }
  why = "division of a lane-varying value whose uniform part is not a "
        "multiple of the divisor";
  return failure();
}

FailureOr<LaneValue> LaneEvaluator::bitwise(const LaneValue &a,
                                            const LaneValue &b, Operation *op,
                                            std::string &why) {
  auto apply = [&](int64_t x, int64_t y) -> int64_t {
    if (isa<arith::XOrIOp>(op))
      return x ^ y;
    if (isa<arith::OrIOp>(op))
      return x | y;
    return x & y;
  };
  // and with a low-bit mask is a remainder.
  if (isa<arith::AndIOp>(op) && b.isConstant() && b.lane[0] > 0 &&
      llvm::isPowerOf2_64(b.lane[0] + 1)) {
    LaneValue k = constant(b.lane[0] + 1);
    return divOrRem(a, k, /*isRem=*/true, why);
  }
  if (a.laneInvariant() && b.laneInvariant() &&
      !(a.terms.empty() && b.terms.empty()))
    return freshSymbol(1);
  const LaneValue *u = &a, *c = &b;
  if (!a.terms.empty() && !b.terms.empty()) {
    why = "bitwise operation on two values with uniform parts";
    return failure();
  }
  if (u->terms.empty())
    std::swap(u, c);
  // (U + x) op y == U + (x op y) when U is a multiple of 2^m and x, y lie
  // in [0, 2^m).
  int64_t hi = 0;
  for (int64_t l = 0; l < kLanes; ++l) {
    if (u->lane[l] < 0 || c->lane[l] < 0) {
      why = "bitwise operation on a negative lane value";
      return failure();
    }
    hi = std::max({hi, u->lane[l], c->lane[l]});
  }
  int64_t pow = llvm::PowerOf2Ceil(hi + 1);
  if (!u->terms.empty() && uniformDivisibility(*u) % pow != 0) {
    why = "bitwise operation mixing lane bits with a uniform part";
    return failure();
  }
  LaneValue r;
  r.terms = u->terms;
  for (int64_t l = 0; l < kLanes; ++l)
    r.lane[l] = apply(u->lane[l], c->lane[l]);
  return r;
}

FailureOr<LaneValue> LaneEvaluator::evalAffine(AffineExpr e,
                                               ArrayRef<LaneValue> dims,
                                               ArrayRef<LaneValue> syms,
                                               std::string &why) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return syms[s.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return constant(c.getValue());
  auto bin = cast<AffineBinaryOpExpr>(e);
  FailureOr<LaneValue> l = evalAffine(bin.getLHS(), dims, syms, why);
  FailureOr<LaneValue> r = evalAffine(bin.getRHS(), dims, syms, why);
  if (failed(l) || failed(r))
    return failure();
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return add(*l, *r);
  case AffineExprKind::Mul:
    if (r->isConstant())
      return scale(*l, r->lane[0]);
    if (l->isConstant())
      return scale(*r, l->lane[0]);
    why = "product of two non-constant values";
    return failure();
  case AffineExprKind::FloorDiv:
    return divOrRem(*l, *r, false, why);
  case AffineExprKind::Mod:
    return divOrRem(*l, *r, true, why);
  default:
    why = "ceildiv in an affine index";
    return failure();
  }
}

FailureOr<LaneValue> LaneEvaluator::evalOp(Operation *op, Value v,
                                           std::string &why) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return constant(c.getSExtValue());
  auto operand = [&](unsigned i) { return eval(op->getOperand(i), why); };
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
    return threadId(t.getDimension());
  if (isa<gpu::LaneIdOp>(op)) {
    LaneValue r;
    std::iota(r.lane.begin(), r.lane.end(), 0);
    return r;
  }
  if (auto bd = dyn_cast<gpu::BlockDimOp>(op))
    return constant(blockDims[(unsigned)bd.getDimension()]);
  if (auto bid = dyn_cast<gpu::BlockIdOp>(op)) {
    int64_t maxId = -1;
    if (auto f = op->getParentOfType<gpu::GPUFuncOp>())
      if (auto known = f.getKnownGridSize())
        if ((unsigned)bid.getDimension() < known->size())
          maxId = (*known)[(unsigned)bid.getDimension()] - 1;
    return freshSymbol(1, maxId);
  }
  if (isa<gpu::GridDimOp, gpu::ClusterIdOp, gpu::ClusterDimOp>(op))
    return freshSymbol(1);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(op))
    return operand(0);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
          arith::DivSIOp, arith::RemUIOp, arith::RemSIOp, arith::ShLIOp,
          arith::ShRUIOp, arith::ShRSIOp, arith::XOrIOp, arith::OrIOp,
          arith::AndIOp, arith::MinUIOp, arith::MinSIOp, arith::MaxUIOp,
          arith::MaxSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp>(op)) {
    FailureOr<LaneValue> a = operand(0), b = operand(1);
    if (failed(a) || failed(b))
      return failure();
    if (isa<arith::AddIOp>(op))
      return add(*a, *b);
    if (isa<arith::SubIOp>(op))
      return add(*a, *b, -1);
    if (isa<arith::MulIOp>(op)) {
      if (b->isConstant())
        return scale(*a, b->lane[0]);
      if (a->isConstant())
        return scale(*b, a->lane[0]);
      if (a->laneInvariant() && b->laneInvariant())
        return freshSymbol(uniformDivisibility(*a) * uniformDivisibility(*b));
      why = "product of a lane-varying value and a non-constant";
      return failure();
    }
    if (isa<arith::ShLIOp>(op)) {
      if (!b->isConstant()) {
        why = "shift by a non-constant amount";
        return failure();
      }
      return scale(*a, int64_t(1) << b->lane[0]);
    }
    if (isa<arith::ShRUIOp, arith::ShRSIOp>(op)) {
      if (!b->isConstant()) {
        why = "shift by a non-constant amount";
        return failure();
      }
      return divOrRem(*a, constant(int64_t(1) << b->lane[0]), false, why);
    }
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(op))
      return divOrRem(*a, *b, false, why);
    if (isa<arith::RemUIOp, arith::RemSIOp>(op))
      return divOrRem(*a, *b, true, why);
    if (isa<arith::XOrIOp, arith::OrIOp, arith::AndIOp>(op))
      return bitwise(*a, *b, op, why);
    // Clamps take their in-bounds value: the operand that is not constant.
    if (isa<arith::MinUIOp, arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp>(
            op))
      return b->isConstant() ? *a : *b;
    why = "ceildiv of an index";
    return failure();
  }
  if (auto sel = dyn_cast<arith::SelectOp>(op))
    return eval(sel.getTrueValue(), why); // masks assumed in bounds
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<LaneValue, 4> dims, syms;
    for (auto [i, o] : llvm::enumerate(apply.getMapOperands())) {
      FailureOr<LaneValue> x = eval(o, why);
      if (failed(x))
        return failure();
      (i < map.getNumDims() ? dims : syms).push_back(*x);
    }
    return evalAffine(map.getResult(0), dims, syms, why);
  }
  if (isa<memref::LoadOp, vector::ExtractOp>(op)) {
    why = "index loaded from memory";
    return failure();
  }
  why = "index computed by " + op->getName().getStringRef().str();
  return failure();
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

std::optional<AccessParts> mlir::memopt::getAccessParts(Operation *op) {
  if (auto l = dyn_cast<memref::LoadOp>(op))
    return AccessParts{l.getMemref(), l.getIndices(), l.getType(), false};
  if (auto s = dyn_cast<memref::StoreOp>(op))
    return AccessParts{s.getMemref(), s.getIndices(),
                       s.getValueToStore().getType(), true};
  if (auto l = dyn_cast<vector::LoadOp>(op))
    return AccessParts{l.getBase(), l.getIndices(), l.getVectorType(), false};
  if (auto s = dyn_cast<vector::StoreOp>(op))
    return AccessParts{s.getBase(), s.getIndices(), s.getVectorType(), true};
  if (auto a = dyn_cast<memref::AtomicRMWOp>(op))
    return AccessParts{a.getMemref(), a.getIndices(), a.getType(), true};
  // An asynchronous copy's global read (its shared-memory write is not
  // modelled).
  if (auto c = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    Type elt = cast<MemRefType>(c.getSrc().getType()).getElementType();
    int64_t n = c.getDstElements().getZExtValue();
    return AccessParts{c.getSrc(), c.getSrcIndices(),
                       n == 1 ? elt : VectorType::get({n}, elt), false};
  }
  return std::nullopt;
}

bool mlir::memopt::isModelledAccess(Operation *op) {
  return isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp,
             memref::AtomicRMWOp, nvgpu::DeviceAsyncCopyOp>(op);
}

static int64_t bytesOf(Type t) {
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.getNumElements() *
           std::max<int64_t>(1, vt.getElementTypeBitWidth() / 8);
  if (t.isIndex())
    return 8;
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

/// The kernel enclosing `op` and its block dimensions (x >= 32 assumed
/// when unknown).
static Operation *getKernel(Operation *op, std::array<int64_t, 3> &dims) {
  dims = {kLanes, 1, 1};
  if (auto launch = op->getParentOfType<gpu::LaunchOp>()) {
    gpu::KernelDim3 b = launch.getBlockSizeOperandValues();
    Value vals[3] = {b.x, b.y, b.z};
    for (int i = 0; i < 3; ++i) {
      APInt c;
      if (matchPattern(vals[i], m_ConstantInt(&c)))
        dims[i] = c.getSExtValue();
      else if (i == 0)
        dims[0] = 1024;
    }
    return launch;
  }
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>()) {
    if (auto known = func.getKnownBlockSize()) {
      ArrayRef<int32_t> k = *known;
      for (int i = 0; i < 3 && i < (int)k.size(); ++i)
        dims[i] = k[i];
    } else {
      dims[0] = 1024;
    }
    return func;
  }
  return nullptr;
}

/// Element offset of `indices` into `memref` relative to the root buffer,
/// following subviews, expand/collapse shapes and casts.
static FailureOr<LaneValue> linearize(LaneEvaluator &ev, Value memref,
                                      ValueRange indices, std::string &why);

int64_t mlir::memopt::getWarpsPerBlock(Operation *op) {
  std::array<int64_t, 3> dims;
  if (!getKernel(op, dims))
    return 1;
  return std::max<int64_t>(1, llvm::divideCeil(dims[0] * dims[1] * dims[2],
                                               kLanes));
}

FailureOr<WarpAccess> mlir::memopt::analyzeWarpAccess(Operation *op,
                                                      std::string &why,
                                                      int64_t warp) {
  WarpAccess a;
  a.op = op;
  std::optional<AccessParts> parts = getAccessParts(op);
  if (!parts) {
    why = "not a modelled access";
    return failure();
  }
  if (auto vt = dyn_cast<VectorType>(parts->accessType);
      vt && vt.getRank() != 1) {
    why = "multi-dimensional vector access";
    return failure();
  }
  a.memref = parts->memref;
  a.isWrite = parts->isWrite;
  ValueRange indices = parts->indices;
  Type accessType = parts->accessType;
  auto type = cast<MemRefType>(a.memref.getType());
  a.isShared = isOnChipMemory(type);
  a.bytesPerLane = bytesOf(accessType);
  std::array<int64_t, 3> dims;
  Operation *kernel = getKernel(op, dims);
  if (!kernel) {
    why = "access outside a GPU kernel";
    return failure();
  }
  LaneEvaluator ev(kernel, dims, warp);
  a.activeLanes = ev.activeLanes();
  FailureOr<LaneValue> elt = linearize(ev, a.memref, indices, why);
  if (failed(elt))
    return failure();
  int64_t eltBytes = bytesOf(type.getElementType());
  for (int64_t l = 0; l < kLanes; ++l)
    a.laneOffset[l] = elt->lane[l] * eltBytes;
  int64_t g = ev.uniformDivisibility(*elt) * eltBytes;
  a.baseDivisibility = 256;
  if (g != 0)
    while (a.baseDivisibility > 1 && g % a.baseDivisibility != 0)
      a.baseDivisibility /= 2;
  return a;
}

static FailureOr<LaneValue> linearize(LaneEvaluator &ev, Value memref,
                                      ValueRange indices, std::string &why) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    why = "memref with dynamic strides";
    return failure();
  }
  LaneValue total;
  for (auto [idx, stride] : llvm::zip(indices, strides)) {
    FailureOr<LaneValue> x = ev.eval(idx, why);
    if (failed(x))
      return failure();
    for (int64_t l = 0; l < kLanes; ++l)
      total.lane[l] += x->lane[l] * stride;
    for (auto [s, c] : x->terms)
      total.terms.push_back({s, c * stride});
  }
  // The offset of a view relative to its source.
  Operation *def = memref.getDefiningOp();
  if (auto sv = dyn_cast_or_null<memref::SubViewOp>(def)) {
    // Offsets of the subview in source coordinates, evaluated as indices.
    SmallVector<OpFoldResult> offs = sv.getMixedOffsets();
    LaneValue base;
    auto srcType = sv.getSourceType();
    SmallVector<int64_t> srcStrides;
    int64_t srcOffset;
    if (failed(srcType.getStridesAndOffset(srcStrides, srcOffset)) ||
        llvm::any_of(srcStrides, ShapedType::isDynamic)) {
      why = "subview of a memref with dynamic strides";
      return failure();
    }
    for (auto [o, st] : llvm::zip(offs, srcStrides)) {
      if (auto attr = dyn_cast<Attribute>(o)) {
        int64_t k = cast<IntegerAttr>(attr).getInt() * st;
        for (int64_t &x : base.lane)
          x += k;
        continue;
      }
      FailureOr<LaneValue> x = ev.eval(cast<Value>(o), why);
      if (failed(x))
        return failure();
      for (int64_t l = 0; l < kLanes; ++l)
        base.lane[l] += x->lane[l] * st;
      for (auto [s, c] : x->terms)
        base.terms.push_back({s, c * st});
    }
    // The subview's own static offset is relative to the root; replace it
    // by the source's chain.
    FailureOr<LaneValue> src = linearize(ev, sv.getSource(), {}, why);
    if (failed(src))
      return failure();
    for (int64_t l = 0; l < kLanes; ++l)
      total.lane[l] += base.lane[l] + src->lane[l];
    llvm::append_range(total.terms, base.terms);
    llvm::append_range(total.terms, src->terms);
    return total;
  }
  if (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp,
                      memref::CastOp, memref::ReinterpretCastOp>(def)) {
    // Same buffer, strides of the result type: the static offset of the
    // result type is relative to the root.
    if (!ShapedType::isDynamic(offset))
      for (int64_t &x : total.lane)
        x += offset;
    else if (!isa<memref::CastOp>(def)) {
      why = "view with a dynamic offset";
      return failure();
    }
    return total;
  }
  if (!ShapedType::isDynamic(offset))
    for (int64_t &x : total.lane)
      x += offset;
  return total;
}

//===----------------------------------------------------------------------===//
// Derived figures
//===----------------------------------------------------------------------===//

SectorUse mlir::memopt::getSectorUse(const WarpAccess &a) {
  SectorUse worst;
  int64_t step = std::min<int64_t>(a.baseDivisibility, 32);
  for (int64_t base = 0; base < 32; base += step) {
    llvm::SmallDenseSet<int64_t, 64> sectors;
    int64_t useful = 0;
    llvm::SmallDenseSet<int64_t, 64> starts;
    for (int64_t l = 0; l < a.activeLanes; ++l) {
      int64_t lo = base + a.laneOffset[l];
      if (starts.insert(lo).second)
        useful += a.bytesPerLane;
      for (int64_t s = llvm::divideFloorSigned(lo, 32);
           s <= llvm::divideFloorSigned(lo + a.bytesPerLane - 1, 32); ++s)
        sectors.insert(s);
    }
    SectorUse u{useful, (int64_t)sectors.size()};
    if (u.sectors > worst.sectors)
      worst = u;
  }
  return worst;
}

std::optional<SectorUse>
mlir::memopt::predictSectorUse(AffineMap map, MemRefType type,
                               unsigned laneLoop,
                               ArrayRef<int64_t> loopRanges) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      map.getNumResults() != (unsigned)type.getRank() ||
      laneLoop >= map.getNumDims() || loopRanges.size() != map.getNumDims() ||
      !type.getElementType().isIntOrIndexOrFloat())
    return std::nullopt;
  WarpAccess a;
  a.bytesPerLane = bytesOf(type.getElementType());
  a.activeLanes = std::clamp<int64_t>(loopRanges[laneLoop], 1, kLanes);
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  for (int64_t l = 0; l < a.activeLanes; ++l) {
    SmallVector<int64_t> ivs(map.getNumDims(), 0);
    ivs[laneLoop] = l;
    SmallVector<int64_t> idx = map.compose(ivs);
    int64_t offset = 0;
    for (auto [i, st] : llvm::zip(idx, strides))
      offset += i * st;
    a.laneOffset[l] = offset * a.bytesPerLane;
  }
  // Kernel formation aligns buffers and rows: assume an aligned base.
  a.baseDivisibility = 256;
  return getSectorUse(a);
}

BankUse mlir::memopt::getBankUse(const WarpAccess &a) {
  int64_t lanesPerPhase =
      a.bytesPerLane <= 4 ? 32 : a.bytesPerLane == 8 ? 16 : 8;
  BankUse r;
  r.ways = 0;
  r.wavefronts = 0;
  r.phases = 0;
  for (int64_t p0 = 0; p0 < a.activeLanes; p0 += lanesPerPhase) {
    // bank -> distinct words
    DenseMap<int64_t, llvm::SmallDenseSet<int64_t, 4>> words;
    for (int64_t l = p0; l < std::min(a.activeLanes, p0 + lanesPerPhase); ++l)
      for (int64_t b = 0; b < std::max<int64_t>(a.bytesPerLane, 1); b += 4) {
        int64_t word = llvm::divideFloorSigned(a.laneOffset[l] + b, 4);
        words[((word % 32) + 32) % 32].insert(word);
      }
    int64_t ways = 1;
    for (auto &[bank, set] : words)
      ways = std::max<int64_t>(ways, set.size());
    r.ways = std::max(r.ways, ways);
    r.wavefronts += ways;
    ++r.phases;
  }
  if (r.phases == 0)
    r = BankUse();
  return r;
}

FailureOr<BankUse> mlir::memopt::getBlockBankUse(const WarpAccess &first,
                                                  int64_t warps,
                                                  std::string &why) {
  Operation *op = first.op;
  BankUse total;
  total.ways = 1;
  total.wavefronts = 0;
  total.phases = 0;
  // Per-warp evaluation needs the block's real shape.
  std::array<int64_t, 3> dims;
  Operation *kernel = getKernel(op, dims);
  bool shapeKnown = kernel && (isa<gpu::LaunchOp>(kernel) ||
                               cast<gpu::GPUFuncOp>(kernel)
                                   .getKnownBlockSize()
                                   .has_value());
  int64_t evaluated = shapeKnown ? warps : 1;
  for (int64_t w = 0; w < evaluated; ++w) {
    FailureOr<WarpAccess> a = w ? analyzeWarpAccess(op, why, w) : first;
    if (failed(a))
      return failure();
    BankUse u = getBankUse(*a);
    int64_t scale = shapeKnown ? 1 : warps;
    total.ways = std::max(total.ways, u.ways);
    total.wavefronts += u.wavefronts * scale;
    total.phases += u.phases * scale;
  }
  return total;
}

bool mlir::memopt::isLaneContiguous(const WarpAccess &a) {
  for (int64_t l = 1; l < a.activeLanes; ++l)
    if (a.laneOffset[l] - a.laneOffset[0] != l * a.bytesPerLane)
      return false;
  return true;
}

int64_t mlir::memopt::getAddressDivisibility(const WarpAccess &a) {
  int64_t d = a.baseDivisibility;
  for (int64_t l = 0; l < a.activeLanes; ++l)
    while (d > 1 && a.laneOffset[l] % d != 0)
      d /= 2;
  return d;
}

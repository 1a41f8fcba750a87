//===- WidenAccesses.cpp - combine scalar accesses into vectors -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/AccessPattern.h"
#include "memopt/Analysis/Traffic.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTWIDENACCESSESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// `v` as `base + k` for a constant k, through nested additions of
/// constants (k = 0 when `v` is not such a sum).
static std::pair<Value, int64_t> splitOffset(Value v) {
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    APInt c;
    if (matchPattern(add.getRhs(), m_ConstantInt(&c))) {
      auto [base, k] = splitOffset(add.getLhs());
      return {base, k + c.getSExtValue()};
    }
    if (matchPattern(add.getLhs(), m_ConstantInt(&c))) {
      auto [base, k] = splitOffset(add.getRhs());
      return {base, k + c.getSExtValue()};
    }
  }
  return {v, 0};
}

struct Access {
  Operation *op;
  bool nontemporal;
  Value memref;
  SmallVector<Value> outer;
  Value base;
  int64_t offset;
};

static std::optional<Access> asScalarAccess(Operation *op) {
  Value memref;
  ValueRange idx;
  bool nontemporal = false;
  if (auto l = dyn_cast<memref::LoadOp>(op)) {
    memref = l.getMemref();
    idx = l.getIndices();
    nontemporal = l.getNontemporal();
  } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
    memref = s.getMemref();
    idx = s.getIndices();
    nontemporal = s.getNontemporal();
  } else {
    return std::nullopt;
  }
  auto type = cast<MemRefType>(memref.getType());
  if (idx.empty() || isOnChipMemory(type) ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  auto [base, k] = splitOffset(idx.back());
  return Access{op, nontemporal, memref, SmallVector<Value>(idx.drop_back()),
                base, k};
}

static bool mayWrite(Operation *op) {
  if (isa<memref::LoadOp, vector::LoadOp>(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op->getNumRegions() > 0 || !isPure(op);
  return effects.hasEffect<MemoryEffects::Write>();
}

static bool touchesMemory(Operation *op) {
  if (isPure(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  return effects.hasEffect<MemoryEffects::Write>() ||
         effects.hasEffect<MemoryEffects::Read>();
}

struct MemoptWidenAccessesPass final
    : memopt::impl::MemoptWidenAccessesPassBase<MemoptWidenAccessesPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *b) {
      Operation *parent = b->getParentOp();
      if (parent->getParentOfType<gpu::LaunchOp>() ||
          isa<gpu::LaunchOp>(parent) ||
          parent->getParentOfType<gpu::GPUFuncOp>() ||
          isa<gpu::GPUFuncOp>(parent))
        blocks.push_back(b);
    });
    for (Block *b : blocks)
      widenBlock(*b);
  }

  void widenBlock(Block &block) {
    // Each access starts at most one run; widened accesses are erased.
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    DenseSet<Operation *> erased;
    for (Operation *op : ops) {
      if (erased.contains(op))
        continue;
      if (std::optional<Access> first = asScalarAccess(op))
        tryWiden(*first, erased);
    }
  }

  /// Finds the accesses base + offset + 1 .. that follow `first` in the
  /// block with only harmless ops between, and widens the longest proven
  /// run starting at `first`.
  bool tryWiden(const Access &first, DenseSet<Operation *> &erased) {
    bool isLoad = isa<memref::LoadOp>(first.op);
    auto type = cast<MemRefType>(first.memref.getType());
    int64_t elt = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    SmallVector<Operation *> run{first.op};
    for (Operation *op = first.op->getNextNode(); op && run.size() < 16;
         op = op->getNextNode()) {
      std::optional<Access> a = asScalarAccess(op);
      if (a && a->memref == first.memref && a->base == first.base &&
          a->outer == first.outer && a->nontemporal == first.nontemporal &&
          isa<memref::LoadOp>(op) == isLoad &&
          a->offset == first.offset + (int64_t)run.size()) {
        run.push_back(op);
        continue;
      }
      if (isLoad ? mayWrite(op) : touchesMemory(op))
        break;
    }
    for (int64_t bytes : {16, 8}) {
      int64_t n = bytes / elt;
      if (n < 2 || (int64_t)run.size() < n)
        continue;
      // The innermost dimension must hold the whole vector.
      if (!type.hasStaticShape() || type.getShape().back() % n != 0)
        continue;
      std::string why;
      FailureOr<WarpAccess> wa = analyzeWarpAccess(first.op, why);
      if (failed(wa)) {
        first.op->emitRemark() << "consecutive " << (isLoad ? "loads" : "stores")
                               << " not widened to " << bytes
                               << " bytes: " << why;
        return false;
      }
      int64_t div = getAddressDivisibility(*wa);
      if (div < bytes) {
        first.op->emitRemark()
            << "consecutive " << (isLoad ? "loads" : "stores")
            << " not widened to " << bytes
            << " bytes: the first address is only proven a multiple of "
            << div << " bytes";
        continue;
      }
      ArrayRef<Operation *> taken = ArrayRef<Operation *>(run).take_front(n);
      erased.insert(taken.begin(), taken.end());
      widen(taken, first, elt, isLoad);
      return true;
    }
    return false;
  }

  void widen(ArrayRef<Operation *> run, const Access &first, int64_t elt,
             bool isLoad) {
    auto type = cast<MemRefType>(first.memref.getType());
    auto vt = VectorType::get({(int64_t)run.size()}, type.getElementType());
    ValueRange idx = isLoad ? cast<memref::LoadOp>(first.op).getIndices()
                            : cast<memref::StoreOp>(first.op).getIndices();
    SmallVector<Value> indices(idx);
    llvm::MaybeAlign align(run.size() * elt);
    if (isLoad) {
      OpBuilder b(first.op);
      auto load = vector::LoadOp::create(b, first.op->getLoc(), vt,
                                         first.memref, indices,
                                         first.nontemporal, align);
      for (auto [k, op] : llvm::enumerate(run)) {
        OpBuilder bk(op);
        Value lane = vector::ExtractOp::create(bk, op->getLoc(), load,
                                               (int64_t)k);
        op->getResult(0).replaceAllUsesWith(lane);
      }
      for (Operation *op : run)
        op->erase();
      return;
    }
    // Stores go where the last one was; every stored value dominates it.
    Operation *last = run.back();
    OpBuilder b(last);
    SmallVector<Value> values;
    for (Operation *op : run)
      values.push_back(cast<memref::StoreOp>(op).getValueToStore());
    Value vec =
        vector::FromElementsOp::create(b, last->getLoc(), vt, values);
    // The first store's indices may be defined after the first store only
    // if they are defined before it: they dominate `last` too.
    vector::StoreOp::create(b, last->getLoc(), vec, first.memref, indices,
                            first.nontemporal, align);
    for (Operation *op : run)
      op->erase();
  }
};
} // namespace

//===- BankFix.cpp - pad or swizzle conflicting workgroup buffers -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// memopt-bank-fix: every change is checked by the lane access model and
// undone unless it proves every access of the buffer conflict-free.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/AccessPattern.h"
#include "memopt/Analysis/Traffic.h"
#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTBANKFIXPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// A workgroup buffer: the values accesses use (one, or one per
/// memref.get_global) and how to change its type.
struct WorkgroupBuffer {
  SmallVector<Value> values;
  memref::GlobalOp global;
  Location loc;
  MemRefType type;

  void setType(MemRefType t) {
    type = t;
    for (Value v : values)
      v.setType(t);
    if (global)
      global.setType(t);
  }
};

/// Indices operand range of an access op (its memref is operand `memIdx`).
static MutableOperandRange getIndicesMutable(Operation *op) {
  if (auto l = dyn_cast<memref::LoadOp>(op))
    return l.getIndicesMutable();
  if (auto s = dyn_cast<memref::StoreOp>(op))
    return s.getIndicesMutable();
  if (auto l = dyn_cast<vector::LoadOp>(op))
    return l.getIndicesMutable();
  if (auto s = dyn_cast<vector::StoreOp>(op))
    return s.getIndicesMutable();
  return cast<memref::AtomicRMWOp>(op).getIndicesMutable();
}

static Value getAccessedMemref(Operation *op) {
  std::optional<AccessParts> parts = getAccessParts(op);
  return parts ? parts->memref : Value();
}

/// Result of modelling every access of a buffer.
struct BufferBanks {
  /// Worst ways over the accesses and where.
  int64_t ways = 1;
  Operation *worst = nullptr;
  /// Widest access in bytes.
  int64_t widest = 0;
  /// Smallest address divisibility of a vector access, in bytes.
  int64_t vectorDivisibility = 256;
  int64_t wavefronts = 0;
  /// Other blocks of the cluster read the buffer (memopt.cluster_load):
  /// its layout must stay as they index it.
  bool readRemotely = false;
};

struct MemoptBankFixPass final
    : memopt::impl::MemoptBankFixPassBase<MemoptBankFixPass> {
  using Base::Base;

  /// Largest static shared memory of one buffer: the option, else the
  /// target's shared memory per block without opt-in.
  int64_t budget = 0;

  void runOnOperation() override {
    if (mode == BankFixMode::None)
      return;
    ModuleOp module = getOperation();
    budget = sharedMemoryBytes ? int64_t(sharedMemoryBytes)
                               : getTarget(module).getSharedMemoryPerBlock();
    SmallVector<WorkgroupBuffer> buffers;
    auto isWorkgroup = [](Type t) {
      auto mt = dyn_cast<MemRefType>(t);
      return mt && isOnChipMemory(mt) &&
             !(isa<gpu::AddressSpaceAttr>(mt.getMemorySpace()) &&
               cast<gpu::AddressSpaceAttr>(mt.getMemorySpace()).getValue() ==
                   gpu::AddressSpace::Private);
    };
    module.walk([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        for (BlockArgument a : launch.getWorkgroupAttributions())
          buffers.push_back({{a}, {}, launch.getLoc(),
                             cast<MemRefType>(a.getType())});
      } else if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
        for (BlockArgument a : func.getWorkgroupAttributions())
          buffers.push_back({{a}, {}, func.getLoc(),
                             cast<MemRefType>(a.getType())});
      } else if (isa<memref::AllocaOp, memref::AllocOp>(op) &&
                 isWorkgroup(op->getResult(0).getType())) {
        buffers.push_back({{op->getResult(0)}, {}, op->getLoc(),
                           cast<MemRefType>(op->getResult(0).getType())});
      } else if (auto g = dyn_cast<memref::GlobalOp>(op)) {
        if (!isWorkgroup(g.getType()))
          return;
        WorkgroupBuffer b{{}, g, g.getLoc(), g.getType()};
        Operation *scope = SymbolTable::getNearestSymbolTable(g);
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(g, scope);
        bool ok = uses.has_value();
        if (ok)
          for (const SymbolTable::SymbolUse &u : *uses) {
            auto get = dyn_cast<memref::GetGlobalOp>(u.getUser());
            if (!get) {
              ok = false;
              break;
            }
            b.values.push_back(get.getResult());
          }
        if (!ok) {
          g.emitRemark() << "bank conflicts not repaired: the global is "
                            "referenced other than by memref.get_global";
          return;
        }
        buffers.push_back(std::move(b));
      }
    });
    for (WorkgroupBuffer &b : buffers)
      repair(b);
  }

  /// Models every access; fails (with `why`) if a use is not a modelled
  /// access of the buffer or an access cannot be evaluated.
  FailureOr<BufferBanks> model(WorkgroupBuffer &b, std::string &why,
                               Operation *&where) {
    BufferBanks r;
    for (Value v : b.values)
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        where = user;
        // Distributed shared memory reads go through the cluster's network,
        // not this block's banks; they pin the layout (see repair).
        if (isa<ClusterLoadOp>(user)) {
          r.readRemotely = true;
          continue;
        }
        // Asynchronous copies are not rewritten by this pass.
        if (!isModelledAccess(user) || isa<nvgpu::DeviceAsyncCopyOp>(user) ||
            getAccessedMemref(user) != v) {
          why = "the buffer is used by " +
                user->getName().getStringRef().str() +
                ", not only loaded and stored";
          return failure();
        }
        FailureOr<WarpAccess> a = analyzeWarpAccess(user, why);
        if (failed(a)) {
          why = "cannot model an access: " + why;
          return failure();
        }
        FailureOr<BankUse> u =
            getBlockBankUse(*a, getWarpsPerBlock(user), why);
        if (failed(u)) {
          why = "cannot model an access: " + why;
          return failure();
        }
        r.wavefronts += u->wavefronts;
        if (u->ways > r.ways) {
          r.ways = u->ways;
          r.worst = user;
        }
        r.widest = std::max(r.widest, a->bytesPerLane);
        int64_t elt = std::max<int64_t>(
            1, b.type.getElementTypeBitWidth() / 8);
        if (a->bytesPerLane > elt)
          r.vectorDivisibility =
              std::min(r.vectorDivisibility, getAddressDivisibility(*a));
      }
    return r;
  }

  void repair(WorkgroupBuffer &b) {
    std::string why;
    Operation *where = nullptr;
    FailureOr<BufferBanks> before = model(b, why, where);
    if (failed(before)) {
      // Only worth a remark when the buffer is accessed at all.
      if (where)
        emitRemark(b.loc) << "bank conflicts not checked for this workgroup "
                             "buffer: "
                          << why;
      return;
    }
    if (before->ways <= 1)
      return;
    if (before->readRemotely) {
      emitRemark(b.loc) << "bank conflicts (" << before->ways
                        << "-way) not repaired: other blocks of the cluster "
                           "read the buffer in its layout";
      return;
    }
    MemRefType type = b.type;
    if (type.getRank() < 2 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity()) {
      emitRemark(b.loc) << "bank conflicts (" << before->ways
                        << "-way) not repaired: needs a statically shaped "
                           "buffer of rank >= 2 with the identity layout";
      return;
    }
    std::string padWhy, swizzleWhy;
    if (mode == BankFixMode::Pad || mode == BankFixMode::Auto) {
      if (succeeded(tryPad(b, *before, padWhy)))
        return;
      if (mode == BankFixMode::Pad) {
        emitRemark(b.loc) << "bank conflicts (" << before->ways
                          << "-way) not repaired by padding: " << padWhy;
        return;
      }
    }
    if (succeeded(trySwizzle(b, *before, swizzleWhy)))
      return;
    InFlightDiagnostic d = emitRemark(b.loc);
    d << "bank conflicts (" << before->ways << "-way) not repaired";
    if (mode == BankFixMode::Auto)
      d << ": padding: " << padWhy << "; swizzle: " << swizzleWhy;
    else
      d << " by swizzling: " << swizzleWhy;
  }

  /// Checks the buffer after a change: conflict-free everywhere.
  bool provenConflictFree(WorkgroupBuffer &b, std::string &why) {
    std::string w;
    Operation *where = nullptr;
    FailureOr<BufferBanks> after = model(b, w, where);
    if (failed(after)) {
      why = w;
      return false;
    }
    if (after->ways > 1) {
      why = "leaves a " + std::to_string(after->ways) +
            "-way conflict at " +
            after->worst->getName().getStringRef().str();
      return false;
    }
    return true;
  }

  LogicalResult tryPad(WorkgroupBuffer &b, const BufferBanks &before,
                       std::string &why) {
    MemRefType old = b.type;
    int64_t elt = std::max<int64_t>(1, old.getElementTypeBitWidth() / 8);
    // One access width, and at least one bank word: two 2-byte elements
    // share a word, so a one-element pad shifts odd columns by half a
    // word only.
    int64_t pad =
        std::max<int64_t>(1, std::max<int64_t>(before.widest, 4) / elt);
    SmallVector<int64_t> shape(old.getShape());
    shape.back() += pad;
    MemRefType padded = MemRefType::get(shape, old.getElementType(),
                                        old.getLayout(), old.getMemorySpace());
    int64_t bytes = getStaticBytes(padded);
    if (bytes > budget) {
      why = "the padded buffer (" + std::to_string(bytes) +
            " B) exceeds the shared-memory budget";
      return failure();
    }
    b.setType(padded);
    if (provenConflictFree(b, why))
      return success();
    b.setType(old);
    return failure();
  }

  LogicalResult trySwizzle(WorkgroupBuffer &b, const BufferBanks &before,
                           std::string &why) {
    MemRefType type = b.type;
    int64_t elt = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    int64_t v = std::max<int64_t>(1, before.widest / elt);
    int64_t cols = type.getShape().back();
    if (cols % v != 0 || !llvm::isPowerOf2_64(cols / v) ||
        !llvm::isPowerOf2_64(v)) {
      why = "the row is not a power-of-two number of " +
            std::to_string(v * elt) + "-byte chunks";
      return failure();
    }
    if (v > 1 && before.vectorDivisibility < v * elt) {
      why = "vector accesses are not proven aligned to their width";
      return failure();
    }
    int64_t m = std::min<int64_t>(cols / v, std::max<int64_t>(1, 128 / (v * elt)));
    if (m < 2) {
      why = "a row holds fewer than two chunks";
      return failure();
    }
    // Rewrite the innermost index of every access.
    struct Change {
      Operation *op;
      unsigned operand;
      Value old;
    };
    SmallVector<Change> changes;
    SmallVector<Operation *> created;
    SmallVector<Operation *> users;
    for (Value val : b.values)
      for (Operation *u : val.getUsers())
        users.push_back(u);
    for (Operation *u : users) {
      MutableOperandRange idx = getIndicesMutable(u);
      unsigned n = idx.size();
      Value r = idx[n - 2].get(), c = idx[n - 1].get();
      OpBuilder bld(u);
      Location loc = u->getLoc();
      auto cst = [&](int64_t x) {
        auto op = arith::ConstantIndexOp::create(bld, loc, x);
        created.push_back(op);
        return op.getResult();
      };
      auto track = [&](Value x) {
        created.push_back(x.getDefiningOp());
        return x;
      };
      Value rm = track(arith::RemUIOp::create(bld, loc, r, cst(m)));
      Value nc;
      if (v == 1) {
        nc = track(arith::XOrIOp::create(bld, loc, c, rm));
      } else {
        Value chunk = track(arith::DivUIOp::create(bld, loc, c, cst(v)));
        Value within = track(arith::RemUIOp::create(bld, loc, c, cst(v)));
        Value sw = track(arith::XOrIOp::create(bld, loc, chunk, rm));
        Value base = track(arith::MulIOp::create(bld, loc, sw, cst(v)));
        nc = track(arith::AddIOp::create(bld, loc, base, within));
      }
      unsigned operandNo = idx[n - 1].getOperandNumber();
      changes.push_back({u, operandNo, c});
      u->setOperand(operandNo, nc);
    }
    if (provenConflictFree(b, why))
      return success();
    for (Change &ch : llvm::reverse(changes))
      ch.op->setOperand(ch.operand, ch.old);
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return failure();
  }
};
} // namespace

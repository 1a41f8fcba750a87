//===- GroupFormation.cpp - partition a block into kernel groups -*- C++
//-*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements formKernelGroups, the fusion decision: consecutive
// linalg.generic ops on memrefs that share a row space form one group, a
// transposing op forms a group with the elementwise ops fused on either
// side of its tile, a column reduction takes a fill of its output just
// before it (which seeds its result) and the elementwise group after it
// that reads its outputs (its epilogue), and every other op is a group of
// its own. Each group becomes a memopt.kernel_group
// at the position of its last op. An op left out of the group before it
// gets a remark saying why.
//
//===----------------------------------------------------------------------===//

#include "Grouping.h"
#include "KernelUtils.h"
#include "Strategies.h"

#include "memopt/Dialect/MemoptDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"

#include <variant>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// The op of `ops` last in their block (a column reduction written before
/// the row group it joins is the group's last op, not the block's).
static Operation *lastInBlock(ArrayRef<linalg::GenericOp> ops) {
  Operation *last = ops.back();
  for (linalg::GenericOp op : ops)
    if (op->getBlock() == last->getBlock() && last->isBeforeInBlock(op))
      last = op;
  return last;
}

/// Moves `ops` (in group order) into a new kernel group at the last one.
static KernelGroupOp wrapInGroup(RewriterBase &rewriter,
                                 ArrayRef<linalg::GenericOp> ops) {
  linalg::GenericOp first = ops.front();
  rewriter.setInsertionPoint(lastInBlock(ops));
  auto group = KernelGroupOp::create(rewriter, first.getLoc());
  Block &body = group.getBody().front();
  for (linalg::GenericOp op : ops)
    rewriter.moveOpBefore(op, &body, body.end());
  return group;
}

/// One group per op, each with #memopt.naive: the baseline.
static unsigned formNaiveGroups(RewriterBase &rewriter, Block &block,
                                const KernelTargetInfo &target) {
  SmallVector<linalg::GenericOp> ops;
  for (Operation &op : block)
    op.walk([&](linalg::GenericOp generic) {
      if (!generic->getParentOfType<KernelGroupOp>())
        ops.push_back(generic);
    });
  for (linalg::GenericOp op : ops)
    wrapInGroup(rewriter, {op})
        .setStrategyAttr(
            NaiveStrategyAttr::get(op.getContext(), target.blockSize, ""));
  return ops.size();
}

/// Whether `op` leaves memory contents alone (an allocation, a view, a
/// constant): generics may move past it.
static bool isInertOp(Operation *op) {
  return isa<memref::AllocOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::CastOp, memref::TransposeOp, arith::ConstantOp>(op);
}

/// The first op strictly between `from` and `to` (`from` before `to` in one
/// block) that is neither inert (an allocation, view or constant) nor
/// accepted by `allowed`: what keeps a group that runs at `to` from moving
/// `from` down to it. Null when there is none.
static Operation *
firstBarrierBetween(Operation *from, Operation *to,
                    function_ref<bool(Operation *)> allowed = nullptr) {
  for (Operation *o = from->getNextNode(); o && o != to; o = o->getNextNode())
    if (!isInertOp(o) && !(allowed && allowed(o)))
      return o;
  return nullptr;
}

/// Whether `op` can move down to just after `to` (later in its block): the
/// ops between are allocations, views, constants and generics that neither
/// write a buffer `op` reads nor read or write one it writes.
static bool movesDownTo(linalg::GenericOp op, Operation *to) {
  DenseSet<Value> reads, writes;
  if (!touchesWholeBuffersOnly(op))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    Value root = getRootBuffer(operand.get());
    (op.isDpsInit(&operand) ? writes : reads).insert(root);
  }
  for (Operation *o = op->getNextNode(); o; o = o->getNextNode()) {
    if (isInertOp(o)) {
      if (o == to)
        return true;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(o);
    if (!generic || !touchesWholeBuffersOnly(generic))
      return false;
    for (OpOperand &operand : generic->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      Value root = getRootBuffer(operand.get());
      if (writes.contains(root) ||
          (generic.isDpsInit(&operand) && reads.contains(root)))
        return false;
    }
    if (o == to)
      return true;
  }
  return false;
}

/// Appends column reduction `g` to `group` when that is legal and the row
/// family can then plan the group (its remarks are said when it plans the
/// group for real); otherwise leaves the group unchanged and says why.
static bool joinColumnReduction(Group &group, const GroupOp &g,
                                const KernelTargetInfo &target,
                                std::string &why) {
  // Elementwise rows alone take only the column reductions of what they
  // read or write (elsewhere the column family's one kernel is as good).
  if (!group.hasReduce() &&
      llvm::none_of(g.op.getDpsInputOperands(), [&](OpOperand *in) {
        Value r = getRootBuffer(in->get());
        return group.readExternal.contains(r) || group.written.contains(r);
      })) {
    why = "it reads nothing the elementwise rows read or write";
    return false;
  }
  Group merged = group;
  if (!tryAppend(merged, g, why))
    return false;
  ScopedDiagnosticHandler quiet(g.op.getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(selectRowStrategy(merged, target, why)))
    return false;
  group = std::move(merged);
  return true;
}

/// Fills at the end of row group `planned[i]` that seed a column reduction
/// planned after it and whose buffer no other op of the group touches
/// split off into an entry of their own just after the group. With square
/// shapes the fill of dgamma's [N] output has the group's row space ([N]
/// rows) and joined the row group, where it kept the reduction out (its
/// output written by the group); split off, it is a fill the reduction may
/// join past (a kernel of its own, before the group).
static void
splitColumnOutputFills(SmallVectorImpl<SmallVector<linalg::GenericOp>> &planned,
                       unsigned i) {
  auto seedsColumnReduction = [&](Value root) {
    for (unsigned k = i + 1; k < planned.size(); ++k)
      for (linalg::GenericOp op : planned[k]) {
        std::string why;
        if (!getFillValue(op) && op.getNumDpsInits() == 1 &&
            getRootBuffer(op.getDpsInits()[0]) == root &&
            succeeded(classifyColumnReduce(op, why)))
          return true;
      }
    return false;
  };
  SmallVector<linalg::GenericOp> split;
  SmallVector<linalg::GenericOp> &ops = planned[i];
  // Groups of fills only stay as they are.
  if (llvm::all_of(ops, [](auto op) { return getFillValue(op); }))
    return;
  while (ops.size() > 1 && getFillValue(ops.back())) {
    linalg::GenericOp fill = ops.back();
    Value root = getRootBuffer(fill.getDpsInits()[0]);
    bool touched = llvm::any_of(ArrayRef(ops).drop_back(), [&](auto op) {
      return llvm::any_of(op->getOperands(), [&](Value v) {
        return isa<MemRefType>(v.getType()) && getRootBuffer(v) == root;
      });
    });
    if (touched || !seedsColumnReduction(root))
      break;
    split.insert(split.begin(), fill);
    ops.pop_back();
  }
  if (!split.empty())
    planned.insert(planned.begin() + i + 1, split);
}

/// Whether no op after `from` up to `to` (in their block), but `except`,
/// touches buffer `root` (through any view, in nested regions too). A
/// memref whose root is neither an argument nor an allocation (a subview,
/// an offset view: getRootBuffer stops there) may alias it and counts as
/// touching it.
static bool isUntouchedBetween(Operation *from, Operation *to, Value root,
                               Operation *except) {
  auto mayAlias = [&](Value v) {
    Value r = getRootBuffer(v);
    if (r == root)
      return true;
    return !isa<BlockArgument>(r) &&
           !r.getDefiningOp<memref::AllocOp>() &&
           !r.getDefiningOp<memref::AllocaOp>();
  };
  for (Operation *o = from->getNextNode(); o; o = o->getNextNode()) {
    if (o != except) {
      WalkResult r = o->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (isa<MemRefType>(v.getType()) && mayAlias(v))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (r.wasInterrupted())
        return false;
    }
    if (o == to)
      break;
  }
  return true;
}

/// A column reduction planned alone whose fill was planned apart (fills
/// hoisted to the top of the function, or left over from a row group that
/// took its sibling) takes that fill when nothing between them touches the
/// output: its whole-column kernel then seeds its result from the fill's
/// constant (seed_from_fill), one launch less.
static void
pairColumnSeedFills(SmallVectorImpl<SmallVector<linalg::GenericOp>> &planned,
                    llvm::MapVector<Operation *, std::string> &refusals,
                    const KernelTargetInfo &target) {
  for (unsigned i = 0; i < planned.size(); ++i) {
    if (planned[i].size() != 1 || !canSeedFromFill(planned[i][0], target))
      continue;
    linalg::GenericOp column = planned[i][0];
    Value root = getRootBuffer(column.getDpsInits()[0]);
    for (unsigned k = 0; k < planned.size(); ++k) {
      SmallVector<linalg::GenericOp> &entry = planned[k];
      if (k == i || entry.empty() ||
          !llvm::all_of(entry, [](auto op) { return bool(getFillValue(op)); }))
        continue;
      auto *it = llvm::find_if(entry, [&](linalg::GenericOp f) {
        return isFillOf(f, column) && touchesWholeBuffersOnly(f) &&
               f->getBlock() == column->getBlock() &&
               f->isBeforeInBlock(column);
      });
      if (it == entry.end() || !isUntouchedBetween(*it, column, root, column))
        continue;
      refusals.erase(*it);
      planned[i].insert(planned[i].begin(), *it);
      entry.erase(it);
      break;
    }
  }
}

/// The fills of the column reductions' outputs of row group `planned[i]`
/// (planned as kernels of their own, before it: a fill of a whole buffer
/// that no op between it and the group's last op but the reduction
/// touches) move into the group, before its first column reduction: the
/// kernel finishing the column partials starts from their constants, one
/// launch less.
static void
absorbColumnSeedFills(SmallVectorImpl<SmallVector<linalg::GenericOp>> &planned,
                      unsigned i,
                      llvm::MapVector<Operation *, std::string> &refusals) {
  SmallVector<linalg::GenericOp> &ops = planned[i];
  std::string why;
  auto *firstColumn = llvm::find_if(ops, [&](linalg::GenericOp op) {
    return !getFillValue(op) && succeeded(classifyColumnReduce(op, why));
  });
  if (firstColumn == ops.end())
    return;
  Operation *end = lastInBlock(ops);
  SmallVector<linalg::GenericOp> seeds;
  for (linalg::GenericOp column : ArrayRef(firstColumn, ops.end())) {
    Value root = getRootBuffer(column.getDpsInits()[0]);
    for (SmallVector<linalg::GenericOp> &entry : planned) {
      if (&entry == &ops)
        continue;
      auto *it = llvm::find_if(entry, [&](linalg::GenericOp f) {
        return isColumnSeedFill(f, column) && touchesWholeBuffersOnly(f);
      });
      if (it == entry.end() || (*it)->getBlock() != end->getBlock() ||
          !(*it)->isBeforeInBlock(end))
        continue;
      // Nothing between the fill and the group's end touches the buffer
      // but the reduction.
      if (!isUntouchedBetween(*it, end, root, column))
        continue;
      seeds.push_back(*it);
      refusals.erase(*it);
      entry.erase(it);
      break;
    }
  }
  ops.insert(firstColumn, seeds.begin(), seeds.end());
}

/// Column reductions over a row group's space that read what the group
/// reads (LayerNorm backward's dgamma and dbeta after dx) join the group
/// when the row family can then finish them through column partials: the
/// kernel groups planned after the row group, up to each such reduction,
/// may only be fills of buffers the group does not touch (they stay
/// kernels of their own, before it), the reduction with its fill, or
/// allocations, views and constants.
static void
attachColumnReductions(SmallVectorImpl<SmallVector<linalg::GenericOp>> &planned,
                       llvm::MapVector<Operation *, std::string> &refusals,
                       const KernelTargetInfo &target) {
  for (unsigned i = 0; i < planned.size(); ++i) {
    if (planned[i].empty())
      continue;
    splitColumnOutputFills(planned, i);
    std::string why;
    FailureOr<Group> group = buildGroup(planned[i], why);
    // (Rows laid out across the contiguous dim keep their interleaved
    // kernel; ops moved past each other must not touch views that may
    // alias.)
    // A group of elementwise ops alone takes column reductions of what it
    // writes or reads (an activation's gradient and the bias gradient, the
    // column sum of a result it also returns: one pass, where the column
    // kernel would read the result back) when its rows give every lane of
    // a warp a 16-byte access at least; shorter rows keep the column
    // family's kernel, whose threads run along the columns of many rows.
    auto wideRows = [&](const Group &g) {
      int64_t bytes = getWidestElementBytes(g);
      int64_t vec = std::max<int64_t>(1, target.vectorBytes / bytes);
      return g.hasReduce() ||
             (g.inner * bytes >=
                  (int64_t)(target.warpSize * target.vectorBytes) &&
              g.inner % vec == 0);
    };
    if (failed(group) || group->inner < 1 || group->outer.empty() ||
        group->hasColumnReduce() || !wideRows(*group) ||
        isLaidOutAcrossRows(*group) ||
        !llvm::all_of(planned[i], touchesWholeBuffersOnly))
      continue;
    // Column reductions written before the group (frontends emit dgamma
    // and dbeta before dx too) move down to it when nothing between them
    // and the group's last op writes what they read or touches their
    // output.
    for (unsigned k = i; k-- > 0;) {
      SmallVector<linalg::GenericOp> &entry = planned[k];
      if (entry.empty() ||
          llvm::all_of(entry, [](linalg::GenericOp op) {
            return getFillValue(op);
          }))
        continue;
      linalg::GenericOp column = entry.back();
      std::string whyNot;
      FailureOr<GroupOp> g = classifyColumnReduce(column, whyNot);
      if (failed(g) || entry.size() > 2 ||
          (entry.size() == 2 && !isFillOf(entry.front(), column)) ||
          column->getBlock() != planned[i].back()->getBlock() ||
          !movesDownTo(column, lastInBlock(planned[i])))
        break;
      if (!joinColumnReduction(*group, *g, target, whyNot))
        break;
      refusals.erase(column);
      planned[i].push_back(column);
      entry.pop_back();
    }
    // Ops the merged group may move past.
    DenseSet<Operation *> passable;
    for (unsigned k = i + 1; k < planned.size(); ++k) {
      SmallVector<linalg::GenericOp> &entry = planned[k];
      if (entry.empty())
        continue;
      linalg::GenericOp column = entry.back();
      bool fills = llvm::all_of(
          entry, [](linalg::GenericOp op) { return getFillValue(op); });
      auto touchesGroup = [&](linalg::GenericOp fill) {
        Value root = getRootBuffer(fill.getDpsInits()[0]);
        return group->readExternal.contains(root) ||
               group->written.contains(root) ||
               group->columnWritten.contains(root);
      };
      if (fills) {
        if (llvm::any_of(entry, touchesGroup) ||
            !llvm::all_of(entry, touchesWholeBuffersOnly))
          break;
        for (linalg::GenericOp f : entry)
          passable.insert(f);
        continue;
      }
      std::string whyNot;
      FailureOr<GroupOp> g = classifyColumnReduce(column, whyNot);
      if (failed(g) || entry.size() > 2 ||
          (entry.size() == 2 && !isFillOf(entry.front(), column)))
        break;
      linalg::GenericOp fill = entry.size() == 2 ? entry.front() : nullptr;
      // Nothing but passable ops between the group and the reduction.
      Operation *groupEnd = lastInBlock(planned[i]);
      bool clear = column->getBlock() == groupEnd->getBlock() &&
                   groupEnd->isBeforeInBlock(column) &&
                   !firstBarrierBetween(groupEnd, column, [&](Operation *o) {
                     return passable.contains(o) || o == fill.getOperation();
                   });
      if (!clear || (fill && touchesGroup(fill)) ||
          !touchesWholeBuffersOnly(column) ||
          (fill && !touchesWholeBuffersOnly(fill)))
        break;
      if (!joinColumnReduction(*group, *g, target, whyNot)) {
        refusals[column] =
            "column reduction not fused with the row kernel before it: " +
            whyNot;
        break;
      }
      refusals.erase(column);
      SmallVector<linalg::GenericOp> &rowOps = planned[i];
      rowOps.push_back(column);
      entry.pop_back();
      if (fill)
        passable.insert(fill);
      // Ops the group now moves past are those up to the reduction.
    }
    absorbColumnSeedFills(planned, i, refusals);
  }
}

/// Sibling column reductions (a sum and a sum of squares of the same
/// columns, dgamma and dbeta without a row group) planned one after another,
/// each with its fill, and the fills planned together before them, become
/// one group when their whole-column kernel can share the loads: the longest
/// run of such entries that stays legal, then the elementwise group after it
/// when that is an epilogue over their outputs. Entries holding tiled
/// transposes stay as they are.
static void
mergeSiblingColumnGroups(SmallVectorImpl<SmallVector<linalg::GenericOp>> &planned,
                         llvm::MapVector<Operation *, std::string> &refusals,
                         const KernelTargetInfo &target,
                         const DenseSet<Operation *> &tiled) {
  auto isTiled = [&](ArrayRef<linalg::GenericOp> ops) {
    return llvm::any_of(ops, [&](auto op) { return tiled.contains(op); });
  };
  auto isFills = [](ArrayRef<linalg::GenericOp> ops) {
    return llvm::all_of(ops, [](auto op) { return bool(getFillValue(op)); });
  };
  // Fills and column reductions, then (possibly) an epilogue.
  auto isColumnish = [&](ArrayRef<linalg::GenericOp> ops) {
    if (ops.empty() || isTiled(ops))
      return false;
    if (isFills(ops))
      return true;
    ColumnGroupOps c = splitColumnGroup(ops);
    return llvm::all_of(c.ops, [&](linalg::GenericOp op) {
      return op.getNumReductionLoops() != 0 && canSeedFromFill(op, target);
    });
  };
  auto legal = [&](ArrayRef<linalg::GenericOp> ops, std::string &why) {
    ColumnGroupOps c = splitColumnGroup(ops);
    if (c.ops.empty() || c.ops[0].getNumReductionLoops() == 0 ||
        !areColumnSiblings(c, target, why) ||
        !isColumnEpilogue(c.ops, c.epilogue, why))
      return false;
    // The group runs at its last op: everything between its first and last
    // op must be a member or touch no memory.
    Block *block = ops.front()->getBlock();
    DenseSet<Operation *> members;
    Operation *first = ops.front(), *last = ops.front();
    for (linalg::GenericOp op : ops) {
      if (op->getBlock() != block) {
        why = "the ops are in different blocks";
        return false;
      }
      members.insert(op);
      if (op->isBeforeInBlock(first))
        first = op;
      if (last->isBeforeInBlock(op))
        last = op;
    }
    if (Operation *o = firstBarrierBetween(
            first, last, [&](Operation *o) { return members.contains(o); })) {
      why = "'" + o->getName().getStringRef().str() +
            "' between them may touch memory";
      return false;
    }
    return true;
  };
  for (unsigned i = 0; i < planned.size(); ++i) {
    if (!isColumnish(planned[i]) ||
        !splitColumnGroup(planned[i]).epilogue.empty())
      continue;
    SmallVector<linalg::GenericOp> cur = planned[i], best;
    unsigned bestEnd = i;
    auto firstReduction = [](ArrayRef<linalg::GenericOp> ops) {
      auto it = llvm::find_if(
          ops, [](auto op) { return op.getNumReductionLoops() != 0; });
      return it == ops.end() ? linalg::GenericOp() : *it;
    };
    unsigned j = i + 1;
    for (; j < planned.size(); ++j) {
      ArrayRef<linalg::GenericOp> entry = planned[j];
      if (entry.empty())
        continue;
      if (!isColumnish(entry))
        break;
      linalg::GenericOp head = firstReduction(cur);
      llvm::append_range(cur, entry);
      linalg::GenericOp next = firstReduction(entry);
      bool hasEpilogue = !splitColumnGroup(entry).epilogue.empty();
      if (next) {
        std::string why;
        if (legal(cur, why)) {
          best = cur;
          bestEnd = j;
        } else if (head) {
          // (Fills only before it: a later reduction may still start the
          // run.)
          if (next.getStaticLoopRanges() == head.getStaticLoopRanges() &&
              next.getIteratorTypesArray() == head.getIteratorTypesArray())
            refusals[next] =
                "column reduction not fused with the column reduction "
                "before it: " + why;
          j = planned.size();
          break;
        }
      }
      if (hasEpilogue) {
        j = planned.size();
        break;
      }
    }
    // The elementwise group after the run, as its epilogue.
    if (!best.empty() && j < planned.size() && !isTiled(planned[j]) &&
        splitColumnGroup(best).epilogue.empty()) {
      SmallVector<linalg::GenericOp> withEpilogue = best;
      llvm::append_range(withEpilogue, planned[j]);
      std::string why;
      if (legal(withEpilogue, why) &&
          splitColumnGroup(withEpilogue).epilogue.size() == planned[j].size()) {
        best = std::move(withEpilogue);
        bestEnd = j;
      }
    }
    // Only a run of more than one reduction (or a fill it gained) changes
    // anything.
    if (best.empty() || bestEnd == i)
      continue;
    // Ops that joined the run were refused the group before them; what
    // the run's first entry was refused (a row kernel, say) still holds.
    for (unsigned k = i + 1; k <= bestEnd; ++k) {
      for (linalg::GenericOp op : planned[k])
        refusals.erase(op);
      planned[k].clear();
    }
    planned[i] = std::move(best);
  }
}

/// The groups of the ops of `block` (see formKernelGroups).
static unsigned formBlockGroups(RewriterBase &rewriter, Block &block,
                                const KernelTargetInfo &target,
                                KernelStrategy strategy) {
  if (strategy == KernelStrategy::Naive)
    return formNaiveGroups(rewriter, block, target);
  // Partition first, rewrite after: groups are decided on the original IR
  // (ops already in a kernel group, pinned by a user, are left alone).
  std::vector<Group> groups;
  SmallVector<std::variant<unsigned, linalg::GenericOp>> order;
  Group current;
  auto flush = [&]() {
    if (current.ops.empty())
      return;
    order.push_back((unsigned)groups.size());
    groups.push_back(std::move(current));
    current = Group();
  };
  // Tiled transposes with their fused elementwise ops; the last one still
  // takes epilogue ops while `openTile` is set.
  std::vector<TileFusion> tiles;
  // Why an op did not join the group before it; said once the groups are
  // final (a column reduction may still take the fill before it).
  llvm::MapVector<Operation *, std::string> refusals;
  auto refuse = [&](Operation *op, const std::string &why) {
    refusals[op] = why;
  };
  // The op other than an allocation, view or constant that ended the last
  // group: the next generic says it was not fused because of it.
  Operation *barrier = nullptr;
  // Ops right after such an op: a fill before it cannot join their group.
  DenseSet<Operation *> followsBarrier;
  DenseMap<Operation *, unsigned> tileOf;
  std::optional<unsigned> openTile;
  for (Operation &op : block) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      // Allocations, views and constants do not touch memory contents;
      // anything else (copies, calls, a kernel group pinned by a user)
      // ends the group.
      if (!isInertOp(&op)) {
        if (!current.ops.empty() || openTile)
          barrier = &op;
        flush();
        openTile.reset();
      }
      continue;
    }
    if (barrier) {
      refuse(generic, "not fused with the preceding kernel group: '" +
                          barrier->getName().getStringRef().str() +
                          "' between them may touch memory");
      followsBarrier.insert(generic);
      barrier = nullptr;
    }
    if (openTile) {
      std::string why;
      if (tryAppendTileEpilogue(tiles[*openTile], generic, why)) {
        tiles[*openTile].epilogue.push_back(generic);
        continue;
      }
      refuse(generic, "not fused with the preceding tiled transpose: " + why);
      openTile.reset();
    }
    std::string why;
    FailureOr<GroupOp> g = classify(generic, why);
    if (failed(g)) {
      if (!current.ops.empty())
        refuse(generic, "not fused with the preceding kernel group: " + why);
      flush();
      order.push_back(generic);
      continue;
    }
    // A transposing op gets its own tiled kernel.
    bool transposing = isTransposing(generic, *g);
    if (transposing) {
      std::string whyNot;
      FailureOr<TransposeMatch> match = matchTranspose(generic, whyNot);
      if (succeeded(match)) {
        TileFusion fusion;
        fusion.op = generic;
        fusion.match = *match;
        // The transpose starts the epilogue's group. One that updates a
        // buffer in place (O = O + T^T: each thread reads and writes its own
        // elements of O) still gets a tile, but fuses nothing.
        bool grouped = tryAppend(fusion.epilogueGroup, *g, whyNot);
        if (!current.ops.empty()) {
          if (grouped &&
              canFuseTilePrologue(current, generic, *match, whyNot)) {
            fusion.prologue = getOps(current);
            fusion.prologueGroup = std::move(current);
            current = Group();
          } else {
            refuse(generic,
                   "not fused with the preceding kernel group: " + whyNot);
          }
        }
        flush();
        tileOf[generic] = tiles.size();
        if (grouped)
          openTile = tiles.size();
        tiles.push_back(std::move(fusion));
        order.push_back(generic);
        continue;
      }
      if (!current.ops.empty())
        refuse(generic, "not fused with the preceding kernel group: a "
                        "transposed access gets its own kernel");
      flush();
      order.push_back(generic);
      continue;
    }
    std::string whyNot;
    if (tryAppend(current, *g, whyNot))
      continue;
    // A fusion that was possible in principle but refused says why.
    if (!current.ops.empty())
      refuse(generic, "not fused with the preceding kernel group: " + whyNot);
    flush();
    if (!tryAppend(current, *g, whyNot)) {
      order.push_back(generic);
      continue;
    }
  }
  flush();

  // Every entry of `order` is one kernel group: a row-space group (which
  // takes the column reduction after it when it is a fill of its output
  // that the reduction's whole-column form seeds its result with), a tiled
  // transpose with its fused ops, or a single op.
  SmallVector<SmallVector<linalg::GenericOp>> planned;
  // A column reduction (planned last) takes the row-space group after it
  // when that group is elementwise over its outputs and reads them (a
  // mean's division): it runs where each output is finished.
  auto takeEpilogue = [&](unsigned &i) {
    linalg::GenericOp column = planned.back().back();
    if (i + 1 >= order.size() || !canSeedFromFill(column, target))
      return;
    auto *idx = std::get_if<unsigned>(&order[i + 1]);
    if (!idx)
      return;
    SmallVector<linalg::GenericOp> epilogue = getOps(groups[*idx]);
    std::string why;
    if (followsBarrier.count(epilogue.front()) ||
        !isColumnEpilogue({column}, epilogue, why))
      return;
    // Nothing between them may touch memory: the group moves the reduction
    // down to its epilogue.
    if (column->getBlock() != epilogue.front()->getBlock() ||
        firstBarrierBetween(column, epilogue.front()))
      return;
    for (linalg::GenericOp e : epilogue)
      refusals.erase(e);
    llvm::append_range(planned.back(), epilogue);
    ++i;
  };
  for (unsigned i = 0; i < order.size(); ++i) {
    if (auto *idx = std::get_if<unsigned>(&order[i])) {
      const Group &group = groups[*idx];
      if (i + 1 < order.size() && group.ops.size() == 1) {
        auto *next = std::get_if<linalg::GenericOp>(&order[i + 1]);
        linalg::GenericOp fill = group.ops[0].op;
        if (next && !tileOf.count(*next) && !followsBarrier.count(*next) &&
            isFillOf(fill, *next) && canSeedFromFill(*next, target)) {
          planned.push_back({fill, *next});
          refusals.erase(*next);
          ++i;
          takeEpilogue(i);
          continue;
        }
      }
      planned.push_back(getOps(group));
      continue;
    }
    linalg::GenericOp op = std::get<linalg::GenericOp>(order[i]);
    if (auto it = tileOf.find(op); it != tileOf.end()) {
      const TileFusion &fusion = tiles[it->second];
      SmallVector<linalg::GenericOp> ops = fusion.prologue;
      ops.push_back(fusion.op);
      llvm::append_range(ops, fusion.epilogue);
      planned.push_back(std::move(ops));
      continue;
    }
    planned.push_back({op});
    takeEpilogue(i);
  }
  attachColumnReductions(planned, refusals, target);
  DenseSet<Operation *> tiled;
  for (const TileFusion &fusion : tiles) {
    tiled.insert(fusion.op);
    for (linalg::GenericOp op : fusion.prologue)
      tiled.insert(op);
    for (linalg::GenericOp op : fusion.epilogue)
      tiled.insert(op);
  }
  mergeSiblingColumnGroups(planned, refusals, target, tiled);
  // (After the merge: a fill pulled in from far away would keep siblings
  // apart.)
  pairColumnSeedFills(planned, refusals, target);
  for (auto &[op, why] : refusals)
    op->emitRemark() << why;
  for (ArrayRef<linalg::GenericOp> ops : planned)
    if (!ops.empty())
      wrapInGroup(rewriter, ops);
  return llvm::count_if(planned, [](const auto &ops) { return !ops.empty(); });
}

unsigned mlir::memopt::formKernelGroups(RewriterBase &rewriter,
                                        FunctionOpInterface func,
                                        const KernelTargetInfo &target,
                                        KernelStrategy strategy) {
  unsigned groups = 0;
  for (Block &block : func.getFunctionBody())
    groups += formBlockGroups(rewriter, block, target, strategy);
  return groups;
}

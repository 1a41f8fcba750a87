// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg,memopt-narrow-integer-accumulators))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg,memopt-narrow-integer-accumulators))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REM

// torch's any over i1 rows (ori): accumulated in i32 from a fill of 0, the
// values zero-extended, the result truncated back to i1.
// REM: remark: reduction accumulated in i32, its 'i1' result truncated after it (exact)
// CHECK-LABEL: func.func @any
// CHECK:       %[[F:.+]] = linalg.generic {{.*}} ins(%{{.*}} : i32) outs(%{{.*}} : tensor<64xi32>)
// CHECK:       %[[R:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[F]] : tensor<64xi32>)
// CHECK:         arith.extui %{{.*}} : i1 to i32
// CHECK:         arith.ori %{{.*}} : i32
// CHECK:       linalg.generic {{.*}} ins(%[[R]] : tensor<64xi32>)
// CHECK:         arith.trunci %{{.*}} : i32 to i1
func.func @any(%x: tensor<64x300xi1>) -> tensor<64xi1> {
  %f = arith.constant false
  %e = tensor.empty() : tensor<64xi1>
  %z = linalg.fill ins(%f : i1) outs(%e : tensor<64xi1>) -> tensor<64xi1>
  %r = linalg.reduce { arith.ori } ins(%x : tensor<64x300xi1>) outs(%z : tensor<64xi1>) dimensions = [1]
  return %r : tensor<64xi1>
}

// A bool mask counted into i64 (mask.sum(dim=1)): the zero-extended i1 in
// i32, the count sign-extended back to i64 (at most 300 per row).
// REM: remark: reduction accumulated in i32, its 'i64' result extended after it (exact)
// CHECK-LABEL: func.func @count
// CHECK:         arith.extui %{{.*}} : i1 to i32
// CHECK:         arith.addi %{{.*}} : i32
// CHECK:         arith.extsi %{{.*}} : i32 to i64
func.func @count(%m: tensor<64x300xi1>) -> tensor<64xi64> {
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<64xi64>
  %z = linalg.fill ins(%zero : i64) outs(%e : tensor<64xi64>) -> tensor<64xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<64x300xi1>) outs(%z : tensor<64xi64>) {
  ^bb0(%a: i1, %acc: i64):
    %w = arith.extui %a : i1 to i64
    %s = arith.addi %acc, %w : i64
    linalg.yield %s : i64
  } -> tensor<64xi64>
  return %r : tensor<64xi64>
}

// An i8 max (maxsi) in i8: sign-extended, truncated back.
// REM: remark: reduction accumulated in i32, its 'i8' result truncated after it (exact)
// CHECK-LABEL: func.func @max_i8
// CHECK:         arith.extsi %{{.*}} : i8 to i32
// CHECK:         arith.maxsi %{{.*}} : i32
// CHECK:         arith.trunci %{{.*}} : i32 to i8
func.func @max_i8(%x: tensor<16x100xi8>) -> tensor<16xi8> {
  %lo = arith.constant -128 : i8
  %e = tensor.empty() : tensor<16xi8>
  %z = linalg.fill ins(%lo : i8) outs(%e : tensor<16xi8>) -> tensor<16xi8>
  %r = linalg.reduce { arith.maxsi } ins(%x : tensor<16x100xi8>) outs(%z : tensor<16xi8>) dimensions = [1]
  return %r : tensor<16xi8>
}

// Kept in i64, with remarks: a sum of i32 values (could overflow 32 bits:
// not an extension of 16 bits or fewer), a count of 2^31 bools (the sum
// could overflow), and a sum seeded from an argument.
// REM: remark: i64 reduction not accumulated in i32: its values are not extensions of integers of 16 bits or fewer combined by a sum, a maximum or a minimum
// REM: remark: i64 reduction not accumulated in i32: its sum could overflow 32 bits
// REM: remark: i64 reduction not accumulated in i32: its initial value is not a constant fill
// CHECK-LABEL: func.func @kept
// CHECK-NOT:   outs(%{{.*}} : tensor<{{[0-9]+}}xi32>)
// CHECK:       return
func.func @kept(%x: tensor<8x100xi32>, %m: tensor<2x1073741824xi1>, %acc: tensor<8xi64>, %y: tensor<8x100xi8>) -> (tensor<8xi64>, tensor<2xi64>, tensor<8xi64>) {
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8xi64>
  %z = linalg.fill ins(%zero : i64) outs(%e : tensor<8xi64>) -> tensor<8xi64>
  %s = linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x100xi32>) outs(%z : tensor<8xi64>) {
  ^bb0(%a: i32, %c: i64):
    %w = arith.extsi %a : i32 to i64
    %v = arith.addi %c, %w : i64
    linalg.yield %v : i64
  } -> tensor<8xi64>
  %e2 = tensor.empty() : tensor<2xi64>
  %z2 = linalg.fill ins(%zero : i64) outs(%e2 : tensor<2xi64>) -> tensor<2xi64>
  %n = linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<2x1073741824xi1>) outs(%z2 : tensor<2xi64>) {
  ^bb0(%a: i1, %c: i64):
    %w = arith.extui %a : i1 to i64
    %v = arith.addi %c, %w : i64
    linalg.yield %v : i64
  } -> tensor<2xi64>
  %t = linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x100xi8>) outs(%acc : tensor<8xi64>) {
  ^bb0(%a: i8, %c: i64):
    %w = arith.extsi %a : i8 to i64
    %v = arith.addi %c, %w : i64
    linalg.yield %v : i64
  } -> tensor<8xi64>
  return %s, %n, %t : tensor<8xi64>, tensor<2xi64>, tensor<8xi64>
}

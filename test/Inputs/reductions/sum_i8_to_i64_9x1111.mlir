// torch-mlir: x.sum(-1) on an int8 tensor gives int64 (torch's promotion: extsi to i64, addi);
// plus torch.clamp(y, -100, 100) on an int32 tensor (maxsi/minsi), an i32 elementwise result.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @int_ops(%x: tensor<9x1111xi8>, %y: tensor<9x1111xi32>) -> (tensor<9xi64>, tensor<9x1111xi32>) {
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<9xi64>
  %f = linalg.fill ins(%z : i64) outs(%e : tensor<9xi64>) -> tensor<9xi64>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x1111xi8>) outs(%f : tensor<9xi64>) {
  ^bb0(%a: i8, %acc: i64):
    %w = arith.extsi %a : i8 to i64
    %r = arith.addi %w, %acc : i64
    linalg.yield %r : i64
  } -> tensor<9xi64>
  %e2 = tensor.empty() : tensor<9x1111xi32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<9x1111xi32>) outs(%e2 : tensor<9x1111xi32>) {
  ^bb0(%a: i32, %o: i32):
    %lo = arith.constant -100 : i32
    %hi = arith.constant 100 : i32
    %t = arith.maxsi %a, %lo : i32
    %u = arith.minsi %t, %hi : i32
    linalg.yield %u : i32
  } -> tensor<9x1111xi32>
  return %s, %c : tensor<9xi64>, tensor<9x1111xi32>
}

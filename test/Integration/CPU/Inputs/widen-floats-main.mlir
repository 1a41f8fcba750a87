// Harness of ../widen-floats-exec.mlir (not a test by itself).
func.func @show(%a: f32, %b: f32, %scale: f32) {
  %t = func.call @sum_bf16(%a, %b, %scale) : (f32, f32, f32) -> bf16
  %w = arith.extf %t : bf16 to f32
  vector.print %w : f32
  return
}

func.func @main() {
  %a = arith.constant 1.00390625 : f32
  %b = arith.constant 9.31322574615478515625e-10 : f32
  %nb = arith.constant -9.31322574615478515625e-10 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %neg = arith.constant -1.0 : f32
  %big = arith.constant 1.0e38 : f32
  %ten = arith.constant 10.0 : f32
  func.call @show(%a, %b, %one) : (f32, f32, f32) -> ()
  func.call @show(%a, %zero, %one) : (f32, f32, f32) -> ()
  func.call @show(%a, %nb, %one) : (f32, f32, f32) -> ()
  func.call @show(%a, %b, %neg) : (f32, f32, f32) -> ()
  func.call @show(%big, %zero, %ten) : (f32, f32, f32) -> ()
  return
}

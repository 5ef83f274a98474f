/**
 * Element `i` of the typed arrays the JavaScript side places in memory at `base`. Singles are read
 * and written as doubles, so a loop works in double precision and rounds only where it stores.
 */

export function f32At(base: usize, i: i32): f64 {
  return <f64>load<f32>(base + ((<usize>i) << 2));
}

export function setF32(base: usize, i: i32, v: f64): void {
  store<f32>(base + ((<usize>i) << 2), <f32>v);
}

export function f64At(base: usize, i: i32): f64 {
  return load<f64>(base + ((<usize>i) << 3));
}

export function setF64(base: usize, i: i32, v: f64): void {
  store<f64>(base + ((<usize>i) << 3), v);
}

export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + ((<usize>i) << 2));
}

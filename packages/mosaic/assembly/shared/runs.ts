/** The first column from `x` on, before `right`, whose label is not `label`: four compared at a time. */
export function endOfRun(row: usize, x: i32, right: i32, label: i32): i32 {
  const wanted = i32x4.splat(label);
  let end = x;
  for (; end + 4 <= right; end += 4) {
    const other = i32x4.bitmask(v128.not(i32x4.eq(v128.load(row + ((<usize>end) << 2)), wanted)));
    if (other !== 0) return end + ctz(other);
  }
  while (end < right && load<i32>(row + ((<usize>end) << 2)) === label) end++;
  return end;
}

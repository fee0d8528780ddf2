import cutlass, cutlass.cute as cute, inspect
print(inspect.signature(cute.make_layout))
print(inspect.signature(cute.make_swizzle))
print(inspect.signature(cute.make_composed_layout))
@cute.jit
def f():
    L = cute.make_layout((4, (2, 3)), stride=(6, (1, 2)))
    print(L)
    S = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))
    print(S)
    print(cute.make_layout(8, stride=0))
f()

; ModuleID = 'axpy.tk'
source_filename = "axpy.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @axpy__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %5, align 8
  %6 = load float, ptr %a, align 4
  %7 = getelementptr i64, ptr %1, i64 0
  %8 = load i64, ptr %7, align 8
  %N = trunc i64 %8 to i32
  %9 = sdiv i32 %N, 64
  %10 = srem i32 %N, 64
  %11 = icmp sgt i32 %N, 0
  %12 = icmp ne i32 %10, 0
  %13 = and i1 %12, %11
  %14 = zext i1 %13 to i32
  %15 = add i32 %9, %14
  %16 = select i1 true, i32 %15, i32 0
  %17 = sext i32 %16 to i64
  %18 = getelementptr i64, ptr %2, i64 0
  store i64 %17, ptr %18, align 8
  %19 = getelementptr i64, ptr %2, i64 1
  store i64 1, ptr %19, align 8
  %20 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %20, align 8
  %21 = getelementptr i64, ptr %2, i64 3
  store i64 262784, ptr %21, align 8
  ret void
}

define void @axpy__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %tile = alloca [64 x float], align 64
  %tile10 = alloca [64 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %7, align 8
  %8 = load float, ptr %a, align 4
  %9 = getelementptr i64, ptr %1, i64 0
  %10 = load i64, ptr %9, align 8
  %N = trunc i64 %10 to i32
  %11 = getelementptr i64, ptr %1, i64 0
  %12 = load i64, ptr %11, align 8
  %13 = mul i64 1, %12
  %14 = add i64 0, %13
  %15 = sext i32 %2 to i64
  %16 = icmp slt i64 %15, 1099511627776
  %17 = select i1 %16, i64 %15, i64 1099511627776
  %18 = icmp sgt i64 %17, -1099511627776
  %19 = select i1 %18, i64 %17, i64 -1099511627776
  %20 = mul i64 %19, 64
  %21 = icmp sge i64 %20, 0
  %22 = and i1 true, %21
  %23 = add i64 %20, 64
  %24 = and i1 %22, true
  %25 = icmp sle i64 %23, %14
  %26 = and i1 %24, %25
  %27 = getelementptr i64, ptr %1, i64 0
  %28 = load i64, ptr %27, align 8
  %29 = mul i64 1, %28
  %30 = add i64 0, %29
  %31 = sext i32 %2 to i64
  %32 = icmp slt i64 %31, 1099511627776
  %33 = select i1 %32, i64 %31, i64 1099511627776
  %34 = icmp sgt i64 %33, -1099511627776
  %35 = select i1 %34, i64 %33, i64 -1099511627776
  %36 = mul i64 %35, 64
  %37 = icmp sge i64 %36, 0
  %38 = and i1 true, %37
  %39 = add i64 %36, 64
  %40 = and i1 %38, true
  %41 = icmp sle i64 %39, %30
  %42 = and i1 %40, %41
  %43 = and i1 %26, %42
  %44 = getelementptr i64, ptr %1, i64 0
  %45 = load i64, ptr %44, align 8
  %46 = mul i64 1, %45
  %47 = add i64 0, %46
  %48 = sext i32 %2 to i64
  %49 = icmp slt i64 %48, 1099511627776
  %50 = select i1 %49, i64 %48, i64 1099511627776
  %51 = icmp sgt i64 %50, -1099511627776
  %52 = select i1 %51, i64 %50, i64 -1099511627776
  %53 = mul i64 %52, 64
  %54 = icmp sge i64 %53, 0
  %55 = and i1 true, %54
  %56 = add i64 %53, 64
  %57 = and i1 %55, true
  %58 = icmp sle i64 %56, %47
  %59 = and i1 %57, %58
  %60 = and i1 %43, %59
  br i1 %60, label %fuse.inside, label %fuse.edge

fuse.inside:                                      ; preds = %start
  %61 = mul i64 0, %30
  %62 = add i64 %61, %36
  %63 = getelementptr float, ptr %X, i64 %62
  %64 = mul i64 0, %47
  %65 = add i64 %64, %53
  %66 = getelementptr float, ptr %Y, i64 %65
  br label %st.row

fuse.edge:                                        ; preds = %start
  call void @llvm.memset.p0.i64(ptr align 64 %tile, i8 0, i64 256, i1 false)
  br label %gl.row

fuse.done:                                        ; preds = %done21, %done
  ret void

st.row:                                           ; preds = %done2, %fuse.inside
  %i = phi i64 [ 0, %fuse.inside ], [ %83, %done2 ]
  %67 = icmp slt i64 %i, 1
  br i1 %67, label %body, label %done

body:                                             ; preds = %st.row
  %68 = add i64 0, %i
  %69 = add i64 0, %68
  %70 = mul i64 %69, %14
  br label %st.col

done:                                             ; preds = %st.row
  br label %fuse.done

st.col:                                           ; preds = %body1, %body
  %i3 = phi i64 [ 0, %body ], [ %82, %body1 ]
  %71 = icmp slt i64 %i3, 64
  br i1 %71, label %body1, label %done2

body1:                                            ; preds = %st.col
  %72 = add i64 %i3, 0
  %73 = getelementptr float, ptr %66, i64 %72
  %74 = load float, ptr %73, align 4
  %75 = getelementptr float, ptr %63, i64 %72
  %76 = load float, ptr %75, align 4
  %77 = fmul float %76, %8
  %78 = fadd float %77, %74
  %79 = add i64 %20, %72
  %80 = add i64 %70, %79
  %81 = getelementptr float, ptr %Y, i64 %80
  store float %78, ptr %81, align 4
  %82 = add i64 %i3, 1
  br label %st.col

done2:                                            ; preds = %st.col
  %83 = add i64 %i, 1
  br label %st.row

gl.row:                                           ; preds = %done8, %fuse.edge
  %i6 = phi i64 [ 0, %fuse.edge ], [ %108, %done8 ]
  %84 = icmp slt i64 %i6, 1
  br i1 %84, label %body4, label %done5

body4:                                            ; preds = %gl.row
  %85 = add i64 0, %i6
  %86 = icmp slt i64 %85, 1
  %87 = icmp sge i64 %85, 0
  %88 = and i1 %87, %86
  %89 = and i1 true, %88
  %90 = add i64 0, %85
  %91 = mul i64 %90, %30
  %92 = sub i64 0, %36
  %93 = icmp sgt i64 %92, 0
  %94 = select i1 %93, i64 %92, i64 0
  %95 = sub i64 %30, %36
  %96 = icmp slt i64 %95, 64
  %97 = select i1 %96, i64 %95, i64 64
  %98 = select i1 %89, i64 %97, i64 0
  %99 = sub i64 %98, %94
  br label %gl.col

done5:                                            ; preds = %gl.row
  call void @llvm.memset.p0.i64(ptr align 64 %tile10, i8 0, i64 256, i1 false)
  br label %gl.row11

gl.col:                                           ; preds = %body7, %body4
  %i9 = phi i64 [ 0, %body4 ], [ %107, %body7 ]
  %100 = icmp slt i64 %i9, %99
  br i1 %100, label %body7, label %done8

body7:                                            ; preds = %gl.col
  %101 = add i64 %i9, %94
  %102 = add i64 %36, %101
  %103 = add i64 %91, %102
  %104 = getelementptr float, ptr %X, i64 %103
  %105 = load float, ptr %104, align 4
  %106 = getelementptr float, ptr %tile, i64 %101
  store float %105, ptr %106, align 4
  %107 = add i64 %i9, 1
  br label %gl.col

done8:                                            ; preds = %gl.col
  %108 = add i64 %i6, 1
  br label %gl.row

gl.row11:                                         ; preds = %done17, %done5
  %i14 = phi i64 [ 0, %done5 ], [ %133, %done17 ]
  %109 = icmp slt i64 %i14, 1
  br i1 %109, label %body12, label %done13

body12:                                           ; preds = %gl.row11
  %110 = add i64 0, %i14
  %111 = icmp slt i64 %110, 1
  %112 = icmp sge i64 %110, 0
  %113 = and i1 %112, %111
  %114 = and i1 true, %113
  %115 = add i64 0, %110
  %116 = mul i64 %115, %47
  %117 = sub i64 0, %53
  %118 = icmp sgt i64 %117, 0
  %119 = select i1 %118, i64 %117, i64 0
  %120 = sub i64 %47, %53
  %121 = icmp slt i64 %120, 64
  %122 = select i1 %121, i64 %120, i64 64
  %123 = select i1 %114, i64 %122, i64 0
  %124 = sub i64 %123, %119
  br label %gl.col15

done13:                                           ; preds = %gl.row11
  br label %st.row19

gl.col15:                                         ; preds = %body16, %body12
  %i18 = phi i64 [ 0, %body12 ], [ %132, %body16 ]
  %125 = icmp slt i64 %i18, %124
  br i1 %125, label %body16, label %done17

body16:                                           ; preds = %gl.col15
  %126 = add i64 %i18, %119
  %127 = add i64 %53, %126
  %128 = add i64 %116, %127
  %129 = getelementptr float, ptr %Y, i64 %128
  %130 = load float, ptr %129, align 4
  %131 = getelementptr float, ptr %tile10, i64 %126
  store float %130, ptr %131, align 4
  %132 = add i64 %i18, 1
  br label %gl.col15

done17:                                           ; preds = %gl.col15
  %133 = add i64 %i14, 1
  br label %gl.row11

st.row19:                                         ; preds = %done25, %done13
  %i22 = phi i64 [ 0, %done13 ], [ %162, %done25 ]
  %134 = icmp slt i64 %i22, 1
  br i1 %134, label %body20, label %done21

body20:                                           ; preds = %st.row19
  %135 = add i64 0, %i22
  %136 = icmp slt i64 %135, 1
  %137 = icmp sge i64 %135, 0
  %138 = and i1 %137, %136
  %139 = and i1 true, %138
  %140 = add i64 0, %135
  %141 = mul i64 %140, %14
  %142 = sub i64 0, %20
  %143 = icmp sgt i64 %142, 0
  %144 = select i1 %143, i64 %142, i64 0
  %145 = sub i64 %14, %20
  %146 = icmp slt i64 %145, 64
  %147 = select i1 %146, i64 %145, i64 64
  %148 = select i1 %139, i64 %147, i64 0
  %149 = sub i64 %148, %144
  br label %st.col23

done21:                                           ; preds = %st.row19
  br label %fuse.done

st.col23:                                         ; preds = %body24, %body20
  %i26 = phi i64 [ 0, %body20 ], [ %161, %body24 ]
  %150 = icmp slt i64 %i26, %149
  br i1 %150, label %body24, label %done25

body24:                                           ; preds = %st.col23
  %151 = add i64 %i26, %144
  %152 = getelementptr float, ptr %tile10, i64 %151
  %153 = load float, ptr %152, align 4
  %154 = getelementptr float, ptr %tile, i64 %151
  %155 = load float, ptr %154, align 4
  %156 = fmul float %155, %8
  %157 = fadd float %156, %153
  %158 = add i64 %20, %151
  %159 = add i64 %141, %158
  %160 = getelementptr float, ptr %Y, i64 %159
  store float %157, ptr %160, align 4
  %161 = add i64 %i26, 1
  br label %st.col23

done25:                                           ; preds = %st.col23
  %162 = add i64 %i22, 1
  br label %st.row19
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }

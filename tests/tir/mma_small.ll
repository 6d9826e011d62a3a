; ModuleID = 'mma_small.tk'
source_filename = "mma_small.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @mm__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %5, align 8
  %6 = getelementptr i64, ptr %1, i64 0
  %7 = load i64, ptr %6, align 8
  %M = trunc i64 %7 to i32
  %8 = getelementptr i64, ptr %1, i64 1
  %9 = load i64, ptr %8, align 8
  %K = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 2
  %11 = load i64, ptr %10, align 8
  %N = trunc i64 %11 to i32
  %12 = sdiv i32 %N, 16
  %13 = srem i32 %N, 16
  %14 = icmp sgt i32 %N, 0
  %15 = icmp ne i32 %13, 0
  %16 = and i1 %15, %14
  %17 = zext i1 %16 to i32
  %18 = add i32 %12, %17
  %19 = select i1 true, i32 %18, i32 0
  %20 = sext i32 %19 to i64
  %21 = getelementptr i64, ptr %2, i64 0
  store i64 %20, ptr %21, align 8
  %22 = sdiv i32 %M, 16
  %23 = srem i32 %M, 16
  %24 = icmp sgt i32 %M, 0
  %25 = icmp ne i32 %23, 0
  %26 = and i1 %25, %24
  %27 = zext i1 %26 to i32
  %28 = add i32 %22, %27
  %29 = select i1 true, i32 %28, i32 0
  %30 = sext i32 %29 to i64
  %31 = getelementptr i64, ptr %2, i64 1
  store i64 %30, ptr %31, align 8
  %32 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %32, align 8
  %33 = getelementptr i64, ptr %2, i64 3
  store i64 266765, ptr %33, align 8
  ret void
}

define void @mm__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %mk.bbad = alloca i32, i64 1, align 4
  %mk.first = alloca i64, i64 1, align 8
  %mk.all = alloca i32, i64 1, align 4
  %mk.any = alloca i32, i64 1, align 4
  %mk.orv = alloca i32, i64 1, align 4
  %mk.skip = alloca i8, i64 8, align 1
  %acc.at = alloca [1 x ptr], align 64
  %acc.stride = alloca [1 x i64], align 64
  %acc = alloca [256 x float], align 64
  %acc.zero = alloca [1 x i8], align 64
  %a = alloca [256 x i16], align 64
  %b = alloca [256 x i16], align 64
  %mma.b = alloca [256 x float], align 64
  %mma.a = alloca [256 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %7, align 8
  %8 = getelementptr i64, ptr %1, i64 0
  %9 = load i64, ptr %8, align 8
  %M = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 1
  %11 = load i64, ptr %10, align 8
  %K = trunc i64 %11 to i32
  %12 = getelementptr i64, ptr %1, i64 2
  %13 = load i64, ptr %12, align 8
  %N = trunc i64 %13 to i32
  %14 = getelementptr i64, ptr %1, i64 0
  %15 = load i64, ptr %14, align 8
  %16 = mul i64 1, %15
  %17 = add i64 0, %16
  %18 = getelementptr i64, ptr %1, i64 2
  %19 = load i64, ptr %18, align 8
  %20 = mul i64 1, %19
  %21 = add i64 0, %20
  %22 = sext i32 %3 to i64
  %23 = icmp slt i64 %22, 1099511627776
  %24 = select i1 %23, i64 %22, i64 1099511627776
  %25 = icmp sgt i64 %24, -1099511627776
  %26 = select i1 %25, i64 %24, i64 -1099511627776
  %27 = mul i64 %26, 16
  %28 = sext i32 %2 to i64
  %29 = icmp slt i64 %28, 1099511627776
  %30 = select i1 %29, i64 %28, i64 1099511627776
  %31 = icmp sgt i64 %30, -1099511627776
  %32 = select i1 %31, i64 %30, i64 -1099511627776
  %33 = mul i64 %32, 16
  %34 = mul i64 0, %17
  %35 = add i64 %34, %27
  %36 = mul i64 %35, %21
  %37 = add i64 %36, %33
  %38 = icmp sge i64 %27, 0
  %39 = and i1 true, %38
  %40 = icmp sge i64 %33, 0
  %41 = and i1 %39, %40
  %42 = add i64 %27, 16
  %43 = add i64 %33, 16
  %44 = icmp sle i64 %42, %17
  %45 = and i1 %41, %44
  %46 = icmp sle i64 %43, %21
  %47 = and i1 %45, %46
  %48 = getelementptr i64, ptr %1, i64 0
  %49 = load i64, ptr %48, align 8
  %50 = mul i64 1, %49
  %51 = add i64 0, %50
  %52 = mul i64 4, %51
  %53 = getelementptr i64, ptr %1, i64 2
  %54 = load i64, ptr %53, align 8
  %55 = mul i64 1, %54
  %56 = add i64 0, %55
  %57 = mul i64 %52, %56
  %58 = getelementptr ptr, ptr %0, i64 0
  %59 = load ptr, ptr %58, align 8
  %60 = getelementptr i64, ptr %1, i64 0
  %61 = load i64, ptr %60, align 8
  %62 = mul i64 1, %61
  %63 = add i64 0, %62
  %64 = mul i64 2, %63
  %65 = getelementptr i64, ptr %1, i64 1
  %66 = load i64, ptr %65, align 8
  %67 = mul i64 1, %66
  %68 = add i64 0, %67
  %69 = mul i64 %64, %68
  %70 = ptrtoint ptr %C to i64
  %71 = ptrtoint ptr %59 to i64
  %72 = add i64 %70, %57
  %73 = add i64 %71, %69
  %74 = icmp ule i64 %73, %70
  %75 = icmp ule i64 %72, %71
  %76 = or i1 %75, %74
  %77 = and i1 %47, %76
  %78 = getelementptr ptr, ptr %0, i64 1
  %79 = load ptr, ptr %78, align 8
  %80 = getelementptr i64, ptr %1, i64 1
  %81 = load i64, ptr %80, align 8
  %82 = mul i64 1, %81
  %83 = add i64 0, %82
  %84 = mul i64 2, %83
  %85 = getelementptr i64, ptr %1, i64 2
  %86 = load i64, ptr %85, align 8
  %87 = mul i64 1, %86
  %88 = add i64 0, %87
  %89 = mul i64 %84, %88
  %90 = ptrtoint ptr %C to i64
  %91 = ptrtoint ptr %79 to i64
  %92 = add i64 %90, %57
  %93 = add i64 %91, %89
  %94 = icmp ule i64 %93, %90
  %95 = icmp ule i64 %92, %91
  %96 = or i1 %95, %94
  %97 = and i1 %77, %96
  %acc.inc = getelementptr float, ptr %C, i64 %37
  %98 = select i1 %97, ptr %acc.inc, ptr %acc
  %99 = getelementptr i64, ptr %1, i64 2
  %100 = load i64, ptr %99, align 8
  %101 = mul i64 1, %100
  %102 = add i64 0, %101
  %103 = select i1 %97, i64 %102, i64 16
  store ptr %98, ptr %acc.at, align 8
  store i64 %103, ptr %acc.stride, align 8
  store i8 1, ptr %acc.zero, align 1
  %104 = getelementptr i64, ptr %1, i64 0
  %105 = load i64, ptr %104, align 8
  %106 = mul i64 1, %105
  %107 = add i64 0, %106
  %108 = getelementptr i64, ptr %1, i64 1
  %109 = load i64, ptr %108, align 8
  %110 = mul i64 1, %109
  %111 = add i64 0, %110
  %112 = sext i32 %3 to i64
  %113 = icmp slt i64 %112, 1099511627776
  %114 = select i1 %113, i64 %112, i64 1099511627776
  %115 = icmp sgt i64 %114, -1099511627776
  %116 = select i1 %115, i64 %114, i64 -1099511627776
  %117 = mul i64 %116, 16
  %118 = icmp sge i64 %117, 0
  %119 = and i1 true, %118
  %120 = and i1 %119, true
  %121 = add i64 %117, 16
  %122 = icmp sle i64 %121, %107
  %123 = and i1 %120, %122
  %124 = icmp sle i64 16, %111
  %125 = and i1 %123, %124
  br i1 %125, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %start
  %126 = mul i64 0, %107
  %127 = add i64 %126, %117
  br label %in.row

gl.edge:                                          ; preds = %start
  call void @llvm.memset.p0.i64(ptr align 64 %a, i8 0, i64 512, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done2, %done
  %128 = getelementptr i64, ptr %1, i64 1
  %129 = load i64, ptr %128, align 8
  %130 = mul i64 1, %129
  %131 = add i64 0, %130
  %132 = getelementptr i64, ptr %1, i64 2
  %133 = load i64, ptr %132, align 8
  %134 = mul i64 1, %133
  %135 = add i64 0, %134
  %136 = sext i32 %2 to i64
  %137 = icmp slt i64 %136, 1099511627776
  %138 = select i1 %137, i64 %136, i64 1099511627776
  %139 = icmp sgt i64 %138, -1099511627776
  %140 = select i1 %139, i64 %138, i64 -1099511627776
  %141 = mul i64 %140, 16
  %142 = icmp sge i64 %141, 0
  %143 = and i1 true, %142
  %144 = add i64 %141, 16
  %145 = icmp sle i64 16, %131
  %146 = and i1 %143, %145
  %147 = icmp sle i64 %144, %135
  %148 = and i1 %146, %147
  br i1 %148, label %gl.inside7, label %gl.edge8

in.row:                                           ; preds = %body, %gl.inside
  %i = phi i64 [ 0, %gl.inside ], [ %159, %body ]
  %149 = icmp slt i64 %i, 16
  br i1 %149, label %body, label %done

body:                                             ; preds = %in.row
  %150 = add i64 %127, %i
  %151 = mul i64 %150, %111
  %152 = add i64 %151, 0
  %153 = mul i64 %i, 16
  %154 = add i64 %153, 0
  %155 = add i64 %152, 0
  %156 = getelementptr i16, ptr %A, i64 %155
  %157 = getelementptr i16, ptr %a, i64 %154
  %158 = load <16 x i16>, ptr %156, align 2
  store <16 x i16> %158, ptr %157, align 2
  %159 = add i64 %i, 1
  br label %in.row

done:                                             ; preds = %in.row
  br label %gl.done

gl.row:                                           ; preds = %done5, %gl.edge
  %i3 = phi i64 [ 0, %gl.edge ], [ %184, %done5 ]
  %160 = icmp slt i64 %i3, 16
  br i1 %160, label %body1, label %done2

body1:                                            ; preds = %gl.row
  %161 = add i64 %117, %i3
  %162 = icmp slt i64 %161, %107
  %163 = icmp sge i64 %161, 0
  %164 = and i1 %163, %162
  %165 = and i1 true, %164
  %166 = mul i64 0, %107
  %167 = add i64 %166, %161
  %168 = mul i64 %167, %111
  %169 = sub i64 %111, 0
  %170 = icmp slt i64 %169, 16
  %171 = select i1 %170, i64 %169, i64 16
  %172 = select i1 %165, i64 %171, i64 0
  %173 = sub i64 %172, 0
  br label %gl.col

done2:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %183, %body4 ]
  %174 = icmp slt i64 %i6, %173
  br i1 %174, label %body4, label %done5

body4:                                            ; preds = %gl.col
  %175 = add i64 %i6, 0
  %176 = mul i64 %i3, 16
  %177 = add i64 %176, %175
  %178 = add i64 0, %175
  %179 = add i64 %168, %178
  %180 = getelementptr i16, ptr %A, i64 %179
  %181 = load i16, ptr %180, align 2
  %182 = getelementptr i16, ptr %a, i64 %177
  store i16 %181, ptr %182, align 2
  %183 = add i64 %i6, 1
  br label %gl.col

done5:                                            ; preds = %gl.col
  %184 = add i64 %i3, 1
  br label %gl.row

gl.inside7:                                       ; preds = %gl.done
  %185 = mul i64 0, %131
  %186 = add i64 %185, 0
  br label %in.row10

gl.edge8:                                         ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row17

gl.done9:                                         ; preds = %done19, %done12
  %187 = load i64, ptr %acc.stride, align 8
  %188 = load ptr, ptr %acc.at, align 8
  %189 = load i8, ptr %acc.zero, align 1
  %190 = icmp ne i8 %189, 0
  br label %pack.a

in.row10:                                         ; preds = %done15, %gl.inside7
  %i13 = phi i64 [ 0, %gl.inside7 ], [ %203, %done15 ]
  %191 = icmp slt i64 %i13, 16
  br i1 %191, label %body11, label %done12

body11:                                           ; preds = %in.row10
  %192 = add i64 %186, %i13
  %193 = mul i64 %192, %135
  %194 = add i64 %193, %141
  br label %in.col

done12:                                           ; preds = %in.row10
  br label %gl.done9

in.col:                                           ; preds = %body14, %body11
  %i16 = phi i64 [ 0, %body11 ], [ %202, %body14 ]
  %195 = icmp slt i64 %i16, 16
  br i1 %195, label %body14, label %done15

body14:                                           ; preds = %in.col
  %196 = mul i64 %i16, 16
  %197 = add i64 %196, %i13
  %198 = add i64 %194, %i16
  %199 = getelementptr i16, ptr %B, i64 %198
  %200 = load i16, ptr %199, align 2
  %201 = getelementptr i16, ptr %b, i64 %197
  store i16 %200, ptr %201, align 2
  %202 = add i64 %i16, 1
  br label %in.col

done15:                                           ; preds = %in.col
  %203 = add i64 %i13, 1
  br label %in.row10

gl.row17:                                         ; preds = %done23, %gl.edge8
  %i20 = phi i64 [ 0, %gl.edge8 ], [ %231, %done23 ]
  %204 = icmp slt i64 %i20, 16
  br i1 %204, label %body18, label %done19

body18:                                           ; preds = %gl.row17
  %205 = add i64 0, %i20
  %206 = icmp slt i64 %205, %131
  %207 = icmp sge i64 %205, 0
  %208 = and i1 %207, %206
  %209 = and i1 true, %208
  %210 = mul i64 0, %131
  %211 = add i64 %210, %205
  %212 = mul i64 %211, %135
  %213 = sub i64 0, %141
  %214 = icmp sgt i64 %213, 0
  %215 = select i1 %214, i64 %213, i64 0
  %216 = sub i64 %135, %141
  %217 = icmp slt i64 %216, 16
  %218 = select i1 %217, i64 %216, i64 16
  %219 = select i1 %209, i64 %218, i64 0
  %220 = sub i64 %219, %215
  br label %gl.col21

done19:                                           ; preds = %gl.row17
  br label %gl.done9

gl.col21:                                         ; preds = %body22, %body18
  %i24 = phi i64 [ 0, %body18 ], [ %230, %body22 ]
  %221 = icmp slt i64 %i24, %220
  br i1 %221, label %body22, label %done23

body22:                                           ; preds = %gl.col21
  %222 = add i64 %i24, %215
  %223 = mul i64 %222, 16
  %224 = add i64 %223, %i20
  %225 = add i64 %141, %222
  %226 = add i64 %212, %225
  %227 = getelementptr i16, ptr %B, i64 %226
  %228 = load i16, ptr %227, align 2
  %229 = getelementptr i16, ptr %b, i64 %224
  store i16 %228, ptr %229, align 2
  %230 = add i64 %i24, 1
  br label %gl.col21

done23:                                           ; preds = %gl.col21
  %231 = add i64 %i20, 1
  br label %gl.row17

pack.a:                                           ; preds = %done29, %gl.done9
  %i27 = phi i64 [ 0, %gl.done9 ], [ %245, %done29 ]
  %232 = icmp slt i64 %i27, 16
  br i1 %232, label %body25, label %done26

body25:                                           ; preds = %pack.a
  br label %pack.ak

done26:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body28, %body25
  %i30 = phi i64 [ 0, %body25 ], [ %244, %body28 ]
  %233 = icmp slt i64 %i30, 16
  br i1 %233, label %body28, label %done29

body28:                                           ; preds = %pack.ak
  %234 = mul i64 %i27, 16
  %235 = add i64 %234, %i30
  %236 = mul i64 %i27, 16
  %237 = add i64 %236, %i30
  %238 = getelementptr i16, ptr %a, i64 %235
  %239 = load i16, ptr %238, align 2
  %240 = zext i16 %239 to i32
  %241 = shl i32 %240, 16
  %242 = bitcast i32 %241 to float
  %243 = getelementptr float, ptr %mma.a, i64 %237
  store float %242, ptr %243, align 4
  %244 = add i64 %i30, 1
  br label %pack.ak

done29:                                           ; preds = %pack.ak
  %245 = add i64 %i27, 1
  br label %pack.a

pack.b:                                           ; preds = %done35, %done26
  %i33 = phi i64 [ 0, %done26 ], [ %267, %done35 ]
  %246 = icmp slt i64 %i33, 16
  br i1 %246, label %body31, label %done32

body31:                                           ; preds = %pack.b
  br label %pack.bn

done32:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body34, %body31
  %i36 = phi i64 [ 0, %body31 ], [ %266, %body34 ]
  %247 = icmp slt i64 %i36, 16
  br i1 %247, label %body34, label %done35

body34:                                           ; preds = %pack.bn
  %248 = mul i64 %i36, 16
  %249 = add i64 %248, %i33
  %250 = udiv i64 %i36, 32
  %251 = urem i64 %i36, 32
  %252 = mul i64 %250, 32
  %253 = sub i64 16, %252
  %254 = icmp slt i64 %253, 32
  %255 = select i1 %254, i64 %253, i64 32
  %256 = mul i64 %250, 512
  %257 = mul i64 %i33, %255
  %258 = add i64 %257, %251
  %259 = add i64 %256, %258
  %260 = getelementptr i16, ptr %b, i64 %249
  %261 = load i16, ptr %260, align 2
  %262 = zext i16 %261 to i32
  %263 = shl i32 %262, 16
  %264 = bitcast i32 %263 to float
  %265 = getelementptr float, ptr %mma.b, i64 %259
  store float %264, ptr %265, align 4
  %266 = add i64 %i36, 1
  br label %pack.bn

done35:                                           ; preds = %pack.bn
  %267 = add i64 %i33, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.done38, %done32
  %268 = phi i64 [ 0, %done32 ], [ %299, %mk.done38 ]
  %269 = icmp slt i64 %268, 8
  br i1 %269, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %270 = sub i64 7, %268
  %271 = mul i64 %270, 32
  store i32 0, ptr %mk.orv, align 4
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %272 = load i32, ptr %mk.any, align 4
  %273 = icmp ne i32 %272, 0
  %274 = load i32, ptr %mk.all, align 4
  %275 = icmp ne i32 %274, 0
  %276 = load i64, ptr %mk.first, align 8
  %277 = and i1 %190, %273
  br i1 %277, label %mk.zskip, label %mk.zskipdone

mk.or:                                            ; preds = %mk.body37, %mk.body
  %278 = phi i64 [ 0, %mk.body ], [ %286, %mk.body37 ]
  %279 = icmp slt i64 %278, 32
  br i1 %279, label %mk.body37, label %mk.done38

mk.body37:                                        ; preds = %mk.or
  %280 = add i64 %271, %278
  %281 = getelementptr i32, ptr %mma.a, i64 %280
  %282 = load i32, ptr %281, align 4
  %283 = and i32 %282, 2147483647
  %284 = load i32, ptr %mk.orv, align 4
  %285 = or i32 %284, %283
  store i32 %285, ptr %mk.orv, align 4
  %286 = add i64 %278, 1
  br label %mk.or

mk.done38:                                        ; preds = %mk.or
  %287 = load i32, ptr %mk.orv, align 4
  %288 = icmp eq i32 %287, 0
  %289 = zext i1 %288 to i32
  %290 = getelementptr i8, ptr %mk.skip, i64 %270
  %291 = trunc i32 %289 to i8
  store i8 %291, ptr %290, align 1
  %292 = load i32, ptr %mk.any, align 4
  %293 = or i32 %292, %289
  store i32 %293, ptr %mk.any, align 4
  %294 = load i32, ptr %mk.all, align 4
  %295 = and i32 %294, %289
  store i32 %295, ptr %mk.all, align 4
  %296 = load i64, ptr %mk.first, align 8
  %297 = mul i64 %270, 2
  %298 = select i1 %288, i64 %296, i64 %297
  store i64 %298, ptr %mk.first, align 8
  %299 = add i64 %268, 1
  br label %mk.zrows

mk.zskip:                                         ; preds = %mk.done
  br label %mk.zblk

mk.zskipdone:                                     ; preds = %mk.done40, %mk.done
  store i32 0, ptr %mk.bbad, align 4
  %300 = select i1 %273, i64 %276, i64 -1
  br label %mk.pass

mk.zblk:                                          ; preds = %mk.znext, %mk.zskip
  %301 = phi i64 [ 0, %mk.zskip ], [ %306, %mk.znext ]
  %302 = icmp slt i64 %301, 8
  br i1 %302, label %mk.body39, label %mk.done40

mk.body39:                                        ; preds = %mk.zblk
  %303 = getelementptr i8, ptr %mk.skip, i64 %301
  %304 = load i8, ptr %303, align 1
  %305 = icmp ne i8 %304, 0
  br i1 %305, label %mk.zfill, label %mk.znext

mk.done40:                                        ; preds = %mk.zblk
  br label %mk.zskipdone

mk.zfill:                                         ; preds = %mk.body39
  br label %mk.zrow

mk.znext:                                         ; preds = %mk.done42, %mk.body39
  %306 = add i64 %301, 1
  br label %mk.zblk

mk.zrow:                                          ; preds = %mk.done44, %mk.zfill
  %307 = phi i64 [ 0, %mk.zfill ], [ %317, %mk.done44 ]
  %308 = icmp slt i64 %307, 2
  br i1 %308, label %mk.body41, label %mk.done42

mk.body41:                                        ; preds = %mk.zrow
  %309 = mul i64 %301, 2
  %310 = add i64 %309, %307
  %311 = mul i64 %310, %187
  br label %mk.zcol

mk.done42:                                        ; preds = %mk.zrow
  br label %mk.znext

mk.zcol:                                          ; preds = %mk.body43, %mk.body41
  %312 = phi i64 [ 0, %mk.body41 ], [ %316, %mk.body43 ]
  %313 = icmp slt i64 %312, 16
  br i1 %313, label %mk.body43, label %mk.done44

mk.body43:                                        ; preds = %mk.zcol
  %314 = add i64 %311, %312
  %315 = getelementptr float, ptr %188, i64 %314
  store <8 x float> zeroinitializer, ptr %315, align 4
  %316 = add i64 %312, 8
  br label %mk.zcol

mk.done44:                                        ; preds = %mk.zcol
  %317 = add i64 %307, 1
  br label %mk.zrow

mk.pass:                                          ; preds = %mk.passdone, %mk.zskipdone
  %318 = phi i64 [ 0, %mk.zskipdone ], [ %331, %mk.passdone ]
  %319 = icmp slt i64 %318, 2
  br i1 %319, label %mk.body45, label %mk.done46

mk.body45:                                        ; preds = %mk.pass
  %320 = trunc i64 %318 to i8
  %321 = load i32, ptr %mk.bbad, align 4
  %322 = icmp ne i32 %321, 0
  %323 = or i1 %275, %322
  %324 = and i1 %273, %323
  %325 = icmp eq i64 %318, 0
  %326 = or i1 %325, %324
  br i1 %326, label %mk.passrun, label %mk.passdone

mk.done46:                                        ; preds = %mk.pass
  store i8 0, ptr %acc.zero, align 1
  %327 = load i8, ptr %acc.zero, align 1
  %328 = icmp ne i8 %327, 0
  br i1 %328, label %acc.fill, label %acc.settled

mk.passrun:                                       ; preds = %mk.body45
  %329 = icmp eq i64 %318, 0
  %330 = select i1 %329, i64 %300, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done64, %mk.body45
  %331 = add i64 %318, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %332 = phi i64 [ 0, %mk.passrun ], [ %339, %mk.next ]
  %333 = icmp slt i64 %332, 16
  br i1 %333, label %mk.body47, label %mk.done48

mk.body47:                                        ; preds = %mk.i
  %334 = sdiv i64 %332, 2
  %335 = getelementptr i8, ptr %mk.skip, i64 %334
  %336 = load i8, ptr %335, align 1
  %337 = icmp eq i8 %336, %320
  br i1 %337, label %mk.work, label %mk.next

mk.done48:                                        ; preds = %mk.i
  br label %mk.i62

mk.work:                                          ; preds = %mk.body47
  %338 = icmp eq i64 %332, %330
  br i1 %338, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body47
  %339 = add i64 %332, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  br i1 %190, label %mk.accready, label %mk.accload

mk.plain:                                         ; preds = %mk.work
  br i1 %190, label %mk.accready53, label %mk.accload52

mk.blockdone:                                     ; preds = %mk.kdone58, %mk.kdone
  br label %mk.next

mk.accload:                                       ; preds = %mk.checking
  %340 = add i64 %332, 0
  %341 = mul i64 %340, %187
  %342 = add i64 %341, 0
  %343 = getelementptr float, ptr %188, i64 %342
  %344 = load <8 x float>, ptr %343, align 4
  %345 = add i64 %332, 1
  %346 = mul i64 %345, %187
  %347 = add i64 %346, 0
  %348 = getelementptr float, ptr %188, i64 %347
  %349 = load <8 x float>, ptr %348, align 4
  br label %mk.accready

mk.accready:                                      ; preds = %mk.accload, %mk.checking
  %acc0 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %344, %mk.accload ]
  %acc049 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %349, %mk.accload ]
  br label %mk.k

mk.k:                                             ; preds = %mk.kbody, %mk.accready
  %k = phi i64 [ 0, %mk.accready ], [ %376, %mk.kbody ]
  %acc50 = phi <8 x float> [ %acc0, %mk.accready ], [ %367, %mk.kbody ]
  %acc51 = phi <8 x float> [ %acc049, %mk.accready ], [ %375, %mk.kbody ]
  %nonfinite = phi <8 x i1> [ zeroinitializer, %mk.accready ], [ %359, %mk.kbody ]
  %350 = icmp slt i64 %k, 16
  br i1 %350, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %351 = mul i64 %k, 16
  %352 = add i64 %351, 0
  %353 = add i64 0, %352
  %354 = getelementptr float, ptr %mma.b, i64 %353
  %355 = load <8 x float>, ptr %354, align 4
  %356 = bitcast <8 x float> %355 to <8 x i32>
  %357 = and <8 x i32> %356, splat (i32 2139095040)
  %358 = icmp eq <8 x i32> %357, splat (i32 2139095040)
  %359 = or <8 x i1> %nonfinite, %358
  %360 = add i64 %332, 0
  %361 = mul i64 %360, 16
  %362 = add i64 %361, %k
  %363 = getelementptr float, ptr %mma.a, i64 %362
  %364 = load float, ptr %363, align 4
  %365 = insertelement <8 x float> poison, float %364, i32 0
  %366 = shufflevector <8 x float> %365, <8 x float> poison, <8 x i32> zeroinitializer
  %367 = call <8 x float> @llvm.fma.v8f32(<8 x float> %366, <8 x float> %355, <8 x float> %acc50)
  %368 = add i64 %332, 1
  %369 = mul i64 %368, 16
  %370 = add i64 %369, %k
  %371 = getelementptr float, ptr %mma.a, i64 %370
  %372 = load float, ptr %371, align 4
  %373 = insertelement <8 x float> poison, float %372, i32 0
  %374 = shufflevector <8 x float> %373, <8 x float> poison, <8 x i32> zeroinitializer
  %375 = call <8 x float> @llvm.fma.v8f32(<8 x float> %374, <8 x float> %355, <8 x float> %acc51)
  %376 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %377 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite)
  %378 = load i32, ptr %mk.bbad, align 4
  %379 = zext i1 %377 to i32
  %380 = or i32 %378, %379
  store i32 %380, ptr %mk.bbad, align 4
  %381 = add i64 %332, 0
  %382 = mul i64 %381, %187
  %383 = add i64 %382, 0
  %384 = getelementptr float, ptr %188, i64 %383
  store <8 x float> %acc50, ptr %384, align 4
  %385 = add i64 %332, 1
  %386 = mul i64 %385, %187
  %387 = add i64 %386, 0
  %388 = getelementptr float, ptr %188, i64 %387
  store <8 x float> %acc51, ptr %388, align 4
  br label %mk.blockdone

mk.accload52:                                     ; preds = %mk.plain
  %389 = add i64 %332, 0
  %390 = mul i64 %389, %187
  %391 = add i64 %390, 0
  %392 = getelementptr float, ptr %188, i64 %391
  %393 = load <8 x float>, ptr %392, align 4
  %394 = add i64 %332, 1
  %395 = mul i64 %394, %187
  %396 = add i64 %395, 0
  %397 = getelementptr float, ptr %188, i64 %396
  %398 = load <8 x float>, ptr %397, align 4
  br label %mk.accready53

mk.accready53:                                    ; preds = %mk.accload52, %mk.plain
  %acc054 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %393, %mk.accload52 ]
  %acc055 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %398, %mk.accload52 ]
  br label %mk.k56

mk.k56:                                           ; preds = %mk.kbody57, %mk.accready53
  %k59 = phi i64 [ 0, %mk.accready53 ], [ %421, %mk.kbody57 ]
  %acc60 = phi <8 x float> [ %acc054, %mk.accready53 ], [ %412, %mk.kbody57 ]
  %acc61 = phi <8 x float> [ %acc055, %mk.accready53 ], [ %420, %mk.kbody57 ]
  %399 = icmp slt i64 %k59, 16
  br i1 %399, label %mk.kbody57, label %mk.kdone58

mk.kbody57:                                       ; preds = %mk.k56
  %400 = mul i64 %k59, 16
  %401 = add i64 %400, 0
  %402 = add i64 0, %401
  %403 = getelementptr float, ptr %mma.b, i64 %402
  %404 = load <8 x float>, ptr %403, align 4
  %405 = add i64 %332, 0
  %406 = mul i64 %405, 16
  %407 = add i64 %406, %k59
  %408 = getelementptr float, ptr %mma.a, i64 %407
  %409 = load float, ptr %408, align 4
  %410 = insertelement <8 x float> poison, float %409, i32 0
  %411 = shufflevector <8 x float> %410, <8 x float> poison, <8 x i32> zeroinitializer
  %412 = call <8 x float> @llvm.fma.v8f32(<8 x float> %411, <8 x float> %404, <8 x float> %acc60)
  %413 = add i64 %332, 1
  %414 = mul i64 %413, 16
  %415 = add i64 %414, %k59
  %416 = getelementptr float, ptr %mma.a, i64 %415
  %417 = load float, ptr %416, align 4
  %418 = insertelement <8 x float> poison, float %417, i32 0
  %419 = shufflevector <8 x float> %418, <8 x float> poison, <8 x i32> zeroinitializer
  %420 = call <8 x float> @llvm.fma.v8f32(<8 x float> %419, <8 x float> %404, <8 x float> %acc61)
  %421 = add i64 %k59, 1
  br label %mk.k56

mk.kdone58:                                       ; preds = %mk.k56
  %422 = add i64 %332, 0
  %423 = mul i64 %422, %187
  %424 = add i64 %423, 0
  %425 = getelementptr float, ptr %188, i64 %424
  store <8 x float> %acc60, ptr %425, align 4
  %426 = add i64 %332, 1
  %427 = mul i64 %426, %187
  %428 = add i64 %427, 0
  %429 = getelementptr float, ptr %188, i64 %428
  store <8 x float> %acc61, ptr %429, align 4
  br label %mk.blockdone

mk.i62:                                           ; preds = %mk.next66, %mk.done48
  %430 = phi i64 [ 0, %mk.done48 ], [ %437, %mk.next66 ]
  %431 = icmp slt i64 %430, 16
  br i1 %431, label %mk.body63, label %mk.done64

mk.body63:                                        ; preds = %mk.i62
  %432 = sdiv i64 %430, 2
  %433 = getelementptr i8, ptr %mk.skip, i64 %432
  %434 = load i8, ptr %433, align 1
  %435 = icmp eq i8 %434, %320
  br i1 %435, label %mk.work65, label %mk.next66

mk.done64:                                        ; preds = %mk.i62
  br label %mk.passdone

mk.work65:                                        ; preds = %mk.body63
  %436 = icmp eq i64 %430, %330
  br i1 %436, label %mk.checking67, label %mk.plain68

mk.next66:                                        ; preds = %mk.blockdone69, %mk.body63
  %437 = add i64 %430, 2
  br label %mk.i62

mk.checking67:                                    ; preds = %mk.work65
  br i1 %190, label %mk.accready71, label %mk.accload70

mk.plain68:                                       ; preds = %mk.work65
  br i1 %190, label %mk.accready82, label %mk.accload81

mk.blockdone69:                                   ; preds = %mk.kdone87, %mk.kdone76
  br label %mk.next66

mk.accload70:                                     ; preds = %mk.checking67
  %438 = add i64 %430, 0
  %439 = mul i64 %438, %187
  %440 = add i64 %439, 8
  %441 = getelementptr float, ptr %188, i64 %440
  %442 = load <8 x float>, ptr %441, align 4
  %443 = add i64 %430, 1
  %444 = mul i64 %443, %187
  %445 = add i64 %444, 8
  %446 = getelementptr float, ptr %188, i64 %445
  %447 = load <8 x float>, ptr %446, align 4
  br label %mk.accready71

mk.accready71:                                    ; preds = %mk.accload70, %mk.checking67
  %acc072 = phi <8 x float> [ zeroinitializer, %mk.checking67 ], [ %442, %mk.accload70 ]
  %acc073 = phi <8 x float> [ zeroinitializer, %mk.checking67 ], [ %447, %mk.accload70 ]
  br label %mk.k74

mk.k74:                                           ; preds = %mk.kbody75, %mk.accready71
  %k77 = phi i64 [ 0, %mk.accready71 ], [ %474, %mk.kbody75 ]
  %acc78 = phi <8 x float> [ %acc072, %mk.accready71 ], [ %465, %mk.kbody75 ]
  %acc79 = phi <8 x float> [ %acc073, %mk.accready71 ], [ %473, %mk.kbody75 ]
  %nonfinite80 = phi <8 x i1> [ zeroinitializer, %mk.accready71 ], [ %457, %mk.kbody75 ]
  %448 = icmp slt i64 %k77, 16
  br i1 %448, label %mk.kbody75, label %mk.kdone76

mk.kbody75:                                       ; preds = %mk.k74
  %449 = mul i64 %k77, 16
  %450 = add i64 %449, 8
  %451 = add i64 0, %450
  %452 = getelementptr float, ptr %mma.b, i64 %451
  %453 = load <8 x float>, ptr %452, align 4
  %454 = bitcast <8 x float> %453 to <8 x i32>
  %455 = and <8 x i32> %454, splat (i32 2139095040)
  %456 = icmp eq <8 x i32> %455, splat (i32 2139095040)
  %457 = or <8 x i1> %nonfinite80, %456
  %458 = add i64 %430, 0
  %459 = mul i64 %458, 16
  %460 = add i64 %459, %k77
  %461 = getelementptr float, ptr %mma.a, i64 %460
  %462 = load float, ptr %461, align 4
  %463 = insertelement <8 x float> poison, float %462, i32 0
  %464 = shufflevector <8 x float> %463, <8 x float> poison, <8 x i32> zeroinitializer
  %465 = call <8 x float> @llvm.fma.v8f32(<8 x float> %464, <8 x float> %453, <8 x float> %acc78)
  %466 = add i64 %430, 1
  %467 = mul i64 %466, 16
  %468 = add i64 %467, %k77
  %469 = getelementptr float, ptr %mma.a, i64 %468
  %470 = load float, ptr %469, align 4
  %471 = insertelement <8 x float> poison, float %470, i32 0
  %472 = shufflevector <8 x float> %471, <8 x float> poison, <8 x i32> zeroinitializer
  %473 = call <8 x float> @llvm.fma.v8f32(<8 x float> %472, <8 x float> %453, <8 x float> %acc79)
  %474 = add i64 %k77, 1
  br label %mk.k74

mk.kdone76:                                       ; preds = %mk.k74
  %475 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite80)
  %476 = load i32, ptr %mk.bbad, align 4
  %477 = zext i1 %475 to i32
  %478 = or i32 %476, %477
  store i32 %478, ptr %mk.bbad, align 4
  %479 = add i64 %430, 0
  %480 = mul i64 %479, %187
  %481 = add i64 %480, 8
  %482 = getelementptr float, ptr %188, i64 %481
  store <8 x float> %acc78, ptr %482, align 4
  %483 = add i64 %430, 1
  %484 = mul i64 %483, %187
  %485 = add i64 %484, 8
  %486 = getelementptr float, ptr %188, i64 %485
  store <8 x float> %acc79, ptr %486, align 4
  br label %mk.blockdone69

mk.accload81:                                     ; preds = %mk.plain68
  %487 = add i64 %430, 0
  %488 = mul i64 %487, %187
  %489 = add i64 %488, 8
  %490 = getelementptr float, ptr %188, i64 %489
  %491 = load <8 x float>, ptr %490, align 4
  %492 = add i64 %430, 1
  %493 = mul i64 %492, %187
  %494 = add i64 %493, 8
  %495 = getelementptr float, ptr %188, i64 %494
  %496 = load <8 x float>, ptr %495, align 4
  br label %mk.accready82

mk.accready82:                                    ; preds = %mk.accload81, %mk.plain68
  %acc083 = phi <8 x float> [ zeroinitializer, %mk.plain68 ], [ %491, %mk.accload81 ]
  %acc084 = phi <8 x float> [ zeroinitializer, %mk.plain68 ], [ %496, %mk.accload81 ]
  br label %mk.k85

mk.k85:                                           ; preds = %mk.kbody86, %mk.accready82
  %k88 = phi i64 [ 0, %mk.accready82 ], [ %519, %mk.kbody86 ]
  %acc89 = phi <8 x float> [ %acc083, %mk.accready82 ], [ %510, %mk.kbody86 ]
  %acc90 = phi <8 x float> [ %acc084, %mk.accready82 ], [ %518, %mk.kbody86 ]
  %497 = icmp slt i64 %k88, 16
  br i1 %497, label %mk.kbody86, label %mk.kdone87

mk.kbody86:                                       ; preds = %mk.k85
  %498 = mul i64 %k88, 16
  %499 = add i64 %498, 8
  %500 = add i64 0, %499
  %501 = getelementptr float, ptr %mma.b, i64 %500
  %502 = load <8 x float>, ptr %501, align 4
  %503 = add i64 %430, 0
  %504 = mul i64 %503, 16
  %505 = add i64 %504, %k88
  %506 = getelementptr float, ptr %mma.a, i64 %505
  %507 = load float, ptr %506, align 4
  %508 = insertelement <8 x float> poison, float %507, i32 0
  %509 = shufflevector <8 x float> %508, <8 x float> poison, <8 x i32> zeroinitializer
  %510 = call <8 x float> @llvm.fma.v8f32(<8 x float> %509, <8 x float> %502, <8 x float> %acc89)
  %511 = add i64 %430, 1
  %512 = mul i64 %511, 16
  %513 = add i64 %512, %k88
  %514 = getelementptr float, ptr %mma.a, i64 %513
  %515 = load float, ptr %514, align 4
  %516 = insertelement <8 x float> poison, float %515, i32 0
  %517 = shufflevector <8 x float> %516, <8 x float> poison, <8 x i32> zeroinitializer
  %518 = call <8 x float> @llvm.fma.v8f32(<8 x float> %517, <8 x float> %502, <8 x float> %acc90)
  %519 = add i64 %k88, 1
  br label %mk.k85

mk.kdone87:                                       ; preds = %mk.k85
  %520 = add i64 %430, 0
  %521 = mul i64 %520, %187
  %522 = add i64 %521, 8
  %523 = getelementptr float, ptr %188, i64 %522
  store <8 x float> %acc89, ptr %523, align 4
  %524 = add i64 %430, 1
  %525 = mul i64 %524, %187
  %526 = add i64 %525, 8
  %527 = getelementptr float, ptr %188, i64 %526
  store <8 x float> %acc90, ptr %527, align 4
  br label %mk.blockdone69

acc.fill:                                         ; preds = %mk.done46
  %528 = load ptr, ptr %acc.at, align 8
  %529 = load i64, ptr %acc.stride, align 8
  br label %acc.zrow

acc.settled:                                      ; preds = %done92, %mk.done46
  %530 = load ptr, ptr %acc.at, align 8
  %acc.inplace = icmp ne ptr %530, %acc
  br i1 %acc.inplace, label %acc.stored, label %acc.copy

acc.zrow:                                         ; preds = %body91, %acc.fill
  %i93 = phi i64 [ 0, %acc.fill ], [ %534, %body91 ]
  %531 = icmp slt i64 %i93, 16
  br i1 %531, label %body91, label %done92

body91:                                           ; preds = %acc.zrow
  %532 = mul i64 %i93, %529
  %533 = getelementptr float, ptr %528, i64 %532
  call void @llvm.memset.p0.i64(ptr align 4 %533, i8 0, i64 64, i1 false)
  %534 = add i64 %i93, 1
  br label %acc.zrow

done92:                                           ; preds = %acc.zrow
  store i8 0, ptr %acc.zero, align 1
  br label %acc.settled

acc.copy:                                         ; preds = %acc.settled
  %535 = getelementptr i64, ptr %1, i64 0
  %536 = load i64, ptr %535, align 8
  %537 = mul i64 1, %536
  %538 = add i64 0, %537
  %539 = getelementptr i64, ptr %1, i64 2
  %540 = load i64, ptr %539, align 8
  %541 = mul i64 1, %540
  %542 = add i64 0, %541
  %543 = sext i32 %3 to i64
  %544 = icmp slt i64 %543, 1099511627776
  %545 = select i1 %544, i64 %543, i64 1099511627776
  %546 = icmp sgt i64 %545, -1099511627776
  %547 = select i1 %546, i64 %545, i64 -1099511627776
  %548 = mul i64 %547, 16
  %549 = sext i32 %2 to i64
  %550 = icmp slt i64 %549, 1099511627776
  %551 = select i1 %550, i64 %549, i64 1099511627776
  %552 = icmp sgt i64 %551, -1099511627776
  %553 = select i1 %552, i64 %551, i64 -1099511627776
  %554 = mul i64 %553, 16
  %555 = icmp sge i64 %548, 0
  %556 = and i1 true, %555
  %557 = icmp sge i64 %554, 0
  %558 = and i1 %556, %557
  %559 = add i64 %548, 16
  %560 = add i64 %554, 16
  %561 = icmp sle i64 %559, %538
  %562 = and i1 %558, %561
  %563 = icmp sle i64 %560, %542
  %564 = and i1 %562, %563
  br i1 %564, label %gl.inside94, label %gl.edge95

acc.stored:                                       ; preds = %gl.done96, %acc.settled
  ret void

gl.inside94:                                      ; preds = %acc.copy
  %565 = mul i64 0, %538
  %566 = add i64 %565, %548
  br label %in.row97

gl.edge95:                                        ; preds = %acc.copy
  br label %gl.row101

gl.done96:                                        ; preds = %done103, %done99
  br label %acc.stored

in.row97:                                         ; preds = %body98, %gl.inside94
  %i100 = phi i64 [ 0, %gl.inside94 ], [ %577, %body98 ]
  %567 = icmp slt i64 %i100, 16
  br i1 %567, label %body98, label %done99

body98:                                           ; preds = %in.row97
  %568 = add i64 %566, %i100
  %569 = mul i64 %568, %542
  %570 = add i64 %569, %554
  %571 = mul i64 %i100, 16
  %572 = add i64 %571, 0
  %573 = add i64 %570, 0
  %574 = getelementptr float, ptr %acc, i64 %572
  %575 = getelementptr float, ptr %C, i64 %573
  %576 = load <16 x float>, ptr %574, align 4
  store <16 x float> %576, ptr %575, align 4
  %577 = add i64 %i100, 1
  br label %in.row97

done99:                                           ; preds = %in.row97
  br label %gl.done96

gl.row101:                                        ; preds = %done107, %gl.edge95
  %i104 = phi i64 [ 0, %gl.edge95 ], [ %605, %done107 ]
  %578 = icmp slt i64 %i104, 16
  br i1 %578, label %body102, label %done103

body102:                                          ; preds = %gl.row101
  %579 = add i64 %548, %i104
  %580 = icmp slt i64 %579, %538
  %581 = icmp sge i64 %579, 0
  %582 = and i1 %581, %580
  %583 = and i1 true, %582
  %584 = mul i64 0, %538
  %585 = add i64 %584, %579
  %586 = mul i64 %585, %542
  %587 = sub i64 0, %554
  %588 = icmp sgt i64 %587, 0
  %589 = select i1 %588, i64 %587, i64 0
  %590 = sub i64 %542, %554
  %591 = icmp slt i64 %590, 16
  %592 = select i1 %591, i64 %590, i64 16
  %593 = select i1 %583, i64 %592, i64 0
  %594 = sub i64 %593, %589
  br label %gl.col105

done103:                                          ; preds = %gl.row101
  br label %gl.done96

gl.col105:                                        ; preds = %body106, %body102
  %i108 = phi i64 [ 0, %body102 ], [ %604, %body106 ]
  %595 = icmp slt i64 %i108, %594
  br i1 %595, label %body106, label %done107

body106:                                          ; preds = %gl.col105
  %596 = add i64 %i108, %589
  %597 = mul i64 %i104, 16
  %598 = add i64 %597, %596
  %599 = add i64 %554, %596
  %600 = add i64 %586, %599
  %601 = getelementptr float, ptr %acc, i64 %598
  %602 = load float, ptr %601, align 4
  %603 = getelementptr float, ptr %C, i64 %600
  store float %602, ptr %603, align 4
  %604 = add i64 %i108, 1
  br label %gl.col105

done107:                                          ; preds = %gl.col105
  %605 = add i64 %i104, 1
  br label %gl.row101
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.vector.reduce.or.v8i1(<8 x i1>) #2

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

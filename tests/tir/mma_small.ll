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

mk.zrows:                                         ; preds = %mk.scanned, %done32
  %268 = phi i64 [ 0, %done32 ], [ %293, %mk.scanned ]
  %269 = icmp slt i64 %268, 8
  br i1 %269, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %270 = sub i64 7, %268
  %271 = mul i64 %270, 2
  store i32 0, ptr %mk.orv, align 4
  %272 = mul i64 %271, 16
  %273 = add i64 %272, 0
  %274 = getelementptr float, ptr %mma.a, i64 %273
  br label %mk.scan

mk.done:                                          ; preds = %mk.zrows
  %275 = load i32, ptr %mk.any, align 4
  %276 = icmp ne i32 %275, 0
  %277 = load i32, ptr %mk.all, align 4
  %278 = icmp ne i32 %277, 0
  %279 = load i64, ptr %mk.first, align 8
  %280 = and i1 %190, %276
  br i1 %280, label %mk.zskip, label %mk.zskipdone

mk.scanned:                                       ; preds = %mk.done38, %mk.done40
  %281 = load i32, ptr %mk.orv, align 4
  %282 = icmp eq i32 %281, 0
  %283 = zext i1 %282 to i32
  %284 = getelementptr i8, ptr %mk.skip, i64 %270
  %285 = trunc i32 %283 to i8
  store i8 %285, ptr %284, align 1
  %286 = load i32, ptr %mk.any, align 4
  %287 = or i32 %286, %283
  store i32 %287, ptr %mk.any, align 4
  %288 = load i32, ptr %mk.all, align 4
  %289 = and i32 %288, %283
  store i32 %289, ptr %mk.all, align 4
  %290 = load i64, ptr %mk.first, align 8
  %291 = mul i64 %270, 2
  %292 = select i1 %282, i64 %290, i64 %291
  store i64 %292, ptr %mk.first, align 8
  %293 = add i64 %268, 1
  br label %mk.zrows

mk.scan:                                          ; preds = %mk.scanmore, %mk.body
  %294 = phi i64 [ 0, %mk.body ], [ %307, %mk.scanmore ]
  %295 = icmp slt i64 %294, 1
  br i1 %295, label %mk.body37, label %mk.done38

mk.body37:                                        ; preds = %mk.scan
  %296 = getelementptr i32, ptr %274, i64 0
  br label %mk.or

mk.done38:                                        ; preds = %mk.scan
  br label %mk.scanned

mk.or:                                            ; preds = %mk.body39, %mk.body37
  %297 = phi i64 [ 0, %mk.body37 ], [ %304, %mk.body39 ]
  %298 = icmp slt i64 %297, 32
  br i1 %298, label %mk.body39, label %mk.done40

mk.body39:                                        ; preds = %mk.or
  %299 = getelementptr i32, ptr %296, i64 %297
  %300 = load i32, ptr %299, align 4
  %301 = and i32 %300, 2147483647
  %302 = load i32, ptr %mk.orv, align 4
  %303 = or i32 %302, %301
  store i32 %303, ptr %mk.orv, align 4
  %304 = add i64 %297, 1
  br label %mk.or

mk.done40:                                        ; preds = %mk.or
  %305 = load i32, ptr %mk.orv, align 4
  %306 = icmp ne i32 %305, 0
  br i1 %306, label %mk.scanned, label %mk.scanmore

mk.scanmore:                                      ; preds = %mk.done40
  %307 = add i64 %294, 1
  br label %mk.scan

mk.zskip:                                         ; preds = %mk.done
  br label %mk.zblk

mk.zskipdone:                                     ; preds = %mk.done42, %mk.done
  store i32 0, ptr %mk.bbad, align 4
  %308 = select i1 %276, i64 %279, i64 -1
  br label %mk.pass

mk.zblk:                                          ; preds = %mk.znext, %mk.zskip
  %309 = phi i64 [ 0, %mk.zskip ], [ %314, %mk.znext ]
  %310 = icmp slt i64 %309, 8
  br i1 %310, label %mk.body41, label %mk.done42

mk.body41:                                        ; preds = %mk.zblk
  %311 = getelementptr i8, ptr %mk.skip, i64 %309
  %312 = load i8, ptr %311, align 1
  %313 = icmp ne i8 %312, 0
  br i1 %313, label %mk.zfill, label %mk.znext

mk.done42:                                        ; preds = %mk.zblk
  br label %mk.zskipdone

mk.zfill:                                         ; preds = %mk.body41
  br label %mk.zrow

mk.znext:                                         ; preds = %mk.done44, %mk.body41
  %314 = add i64 %309, 1
  br label %mk.zblk

mk.zrow:                                          ; preds = %mk.done46, %mk.zfill
  %315 = phi i64 [ 0, %mk.zfill ], [ %325, %mk.done46 ]
  %316 = icmp slt i64 %315, 2
  br i1 %316, label %mk.body43, label %mk.done44

mk.body43:                                        ; preds = %mk.zrow
  %317 = mul i64 %309, 2
  %318 = add i64 %317, %315
  %319 = mul i64 %318, %187
  br label %mk.zcol

mk.done44:                                        ; preds = %mk.zrow
  br label %mk.znext

mk.zcol:                                          ; preds = %mk.body45, %mk.body43
  %320 = phi i64 [ 0, %mk.body43 ], [ %324, %mk.body45 ]
  %321 = icmp slt i64 %320, 16
  br i1 %321, label %mk.body45, label %mk.done46

mk.body45:                                        ; preds = %mk.zcol
  %322 = add i64 %319, %320
  %323 = getelementptr float, ptr %188, i64 %322
  store <8 x float> zeroinitializer, ptr %323, align 4
  %324 = add i64 %320, 8
  br label %mk.zcol

mk.done46:                                        ; preds = %mk.zcol
  %325 = add i64 %315, 1
  br label %mk.zrow

mk.pass:                                          ; preds = %mk.passdone, %mk.zskipdone
  %326 = phi i64 [ 0, %mk.zskipdone ], [ %339, %mk.passdone ]
  %327 = icmp slt i64 %326, 2
  br i1 %327, label %mk.body47, label %mk.done48

mk.body47:                                        ; preds = %mk.pass
  %328 = trunc i64 %326 to i8
  %329 = load i32, ptr %mk.bbad, align 4
  %330 = icmp ne i32 %329, 0
  %331 = or i1 %278, %330
  %332 = and i1 %276, %331
  %333 = icmp eq i64 %326, 0
  %334 = or i1 %333, %332
  br i1 %334, label %mk.passrun, label %mk.passdone

mk.done48:                                        ; preds = %mk.pass
  store i8 0, ptr %acc.zero, align 1
  %335 = load i8, ptr %acc.zero, align 1
  %336 = icmp ne i8 %335, 0
  br i1 %336, label %acc.fill, label %acc.settled

mk.passrun:                                       ; preds = %mk.body47
  %337 = icmp eq i64 %326, 0
  %338 = select i1 %337, i64 %308, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done66, %mk.body47
  %339 = add i64 %326, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %340 = phi i64 [ 0, %mk.passrun ], [ %347, %mk.next ]
  %341 = icmp slt i64 %340, 16
  br i1 %341, label %mk.body49, label %mk.done50

mk.body49:                                        ; preds = %mk.i
  %342 = sdiv i64 %340, 2
  %343 = getelementptr i8, ptr %mk.skip, i64 %342
  %344 = load i8, ptr %343, align 1
  %345 = icmp eq i8 %344, %328
  br i1 %345, label %mk.work, label %mk.next

mk.done50:                                        ; preds = %mk.i
  br label %mk.i64

mk.work:                                          ; preds = %mk.body49
  %346 = icmp eq i64 %340, %338
  br i1 %346, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body49
  %347 = add i64 %340, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  br i1 %190, label %mk.accready, label %mk.accload

mk.plain:                                         ; preds = %mk.work
  br i1 %190, label %mk.accready55, label %mk.accload54

mk.blockdone:                                     ; preds = %mk.kdone60, %mk.kdone
  br label %mk.next

mk.accload:                                       ; preds = %mk.checking
  %348 = add i64 %340, 0
  %349 = mul i64 %348, %187
  %350 = add i64 %349, 0
  %351 = getelementptr float, ptr %188, i64 %350
  %352 = load <8 x float>, ptr %351, align 4
  %353 = add i64 %340, 1
  %354 = mul i64 %353, %187
  %355 = add i64 %354, 0
  %356 = getelementptr float, ptr %188, i64 %355
  %357 = load <8 x float>, ptr %356, align 4
  br label %mk.accready

mk.accready:                                      ; preds = %mk.accload, %mk.checking
  %acc0 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %352, %mk.accload ]
  %acc051 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %357, %mk.accload ]
  br label %mk.k

mk.k:                                             ; preds = %mk.kbody, %mk.accready
  %k = phi i64 [ 0, %mk.accready ], [ %383, %mk.kbody ]
  %acc52 = phi <8 x float> [ %acc0, %mk.accready ], [ %374, %mk.kbody ]
  %acc53 = phi <8 x float> [ %acc051, %mk.accready ], [ %382, %mk.kbody ]
  %exponents = phi <8 x i32> [ zeroinitializer, %mk.accready ], [ %366, %mk.kbody ]
  %358 = icmp slt i64 %k, 16
  br i1 %358, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %359 = mul i64 %k, 16
  %360 = add i64 %359, 0
  %361 = add i64 0, %360
  %362 = getelementptr float, ptr %mma.b, i64 %361
  %363 = load <8 x float>, ptr %362, align 4
  %364 = bitcast <8 x float> %363 to <8 x i32>
  %365 = and <8 x i32> %364, splat (i32 2139095040)
  %366 = call <8 x i32> @llvm.umax.v8i32(<8 x i32> %exponents, <8 x i32> %365)
  %367 = add i64 %340, 0
  %368 = mul i64 %367, 16
  %369 = add i64 %368, %k
  %370 = getelementptr float, ptr %mma.a, i64 %369
  %371 = load float, ptr %370, align 4
  %372 = insertelement <8 x float> poison, float %371, i32 0
  %373 = shufflevector <8 x float> %372, <8 x float> poison, <8 x i32> zeroinitializer
  %374 = call <8 x float> @llvm.fma.v8f32(<8 x float> %373, <8 x float> %363, <8 x float> %acc52)
  %375 = add i64 %340, 1
  %376 = mul i64 %375, 16
  %377 = add i64 %376, %k
  %378 = getelementptr float, ptr %mma.a, i64 %377
  %379 = load float, ptr %378, align 4
  %380 = insertelement <8 x float> poison, float %379, i32 0
  %381 = shufflevector <8 x float> %380, <8 x float> poison, <8 x i32> zeroinitializer
  %382 = call <8 x float> @llvm.fma.v8f32(<8 x float> %381, <8 x float> %363, <8 x float> %acc53)
  %383 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %384 = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %exponents)
  %385 = icmp eq i32 %384, 2139095040
  %386 = load i32, ptr %mk.bbad, align 4
  %387 = zext i1 %385 to i32
  %388 = or i32 %386, %387
  store i32 %388, ptr %mk.bbad, align 4
  %389 = add i64 %340, 0
  %390 = mul i64 %389, %187
  %391 = add i64 %390, 0
  %392 = getelementptr float, ptr %188, i64 %391
  store <8 x float> %acc52, ptr %392, align 4
  %393 = add i64 %340, 1
  %394 = mul i64 %393, %187
  %395 = add i64 %394, 0
  %396 = getelementptr float, ptr %188, i64 %395
  store <8 x float> %acc53, ptr %396, align 4
  br label %mk.blockdone

mk.accload54:                                     ; preds = %mk.plain
  %397 = add i64 %340, 0
  %398 = mul i64 %397, %187
  %399 = add i64 %398, 0
  %400 = getelementptr float, ptr %188, i64 %399
  %401 = load <8 x float>, ptr %400, align 4
  %402 = add i64 %340, 1
  %403 = mul i64 %402, %187
  %404 = add i64 %403, 0
  %405 = getelementptr float, ptr %188, i64 %404
  %406 = load <8 x float>, ptr %405, align 4
  br label %mk.accready55

mk.accready55:                                    ; preds = %mk.accload54, %mk.plain
  %acc056 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %401, %mk.accload54 ]
  %acc057 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %406, %mk.accload54 ]
  br label %mk.k58

mk.k58:                                           ; preds = %mk.kbody59, %mk.accready55
  %k61 = phi i64 [ 0, %mk.accready55 ], [ %429, %mk.kbody59 ]
  %acc62 = phi <8 x float> [ %acc056, %mk.accready55 ], [ %420, %mk.kbody59 ]
  %acc63 = phi <8 x float> [ %acc057, %mk.accready55 ], [ %428, %mk.kbody59 ]
  %407 = icmp slt i64 %k61, 16
  br i1 %407, label %mk.kbody59, label %mk.kdone60

mk.kbody59:                                       ; preds = %mk.k58
  %408 = mul i64 %k61, 16
  %409 = add i64 %408, 0
  %410 = add i64 0, %409
  %411 = getelementptr float, ptr %mma.b, i64 %410
  %412 = load <8 x float>, ptr %411, align 4
  %413 = add i64 %340, 0
  %414 = mul i64 %413, 16
  %415 = add i64 %414, %k61
  %416 = getelementptr float, ptr %mma.a, i64 %415
  %417 = load float, ptr %416, align 4
  %418 = insertelement <8 x float> poison, float %417, i32 0
  %419 = shufflevector <8 x float> %418, <8 x float> poison, <8 x i32> zeroinitializer
  %420 = call <8 x float> @llvm.fma.v8f32(<8 x float> %419, <8 x float> %412, <8 x float> %acc62)
  %421 = add i64 %340, 1
  %422 = mul i64 %421, 16
  %423 = add i64 %422, %k61
  %424 = getelementptr float, ptr %mma.a, i64 %423
  %425 = load float, ptr %424, align 4
  %426 = insertelement <8 x float> poison, float %425, i32 0
  %427 = shufflevector <8 x float> %426, <8 x float> poison, <8 x i32> zeroinitializer
  %428 = call <8 x float> @llvm.fma.v8f32(<8 x float> %427, <8 x float> %412, <8 x float> %acc63)
  %429 = add i64 %k61, 1
  br label %mk.k58

mk.kdone60:                                       ; preds = %mk.k58
  %430 = add i64 %340, 0
  %431 = mul i64 %430, %187
  %432 = add i64 %431, 0
  %433 = getelementptr float, ptr %188, i64 %432
  store <8 x float> %acc62, ptr %433, align 4
  %434 = add i64 %340, 1
  %435 = mul i64 %434, %187
  %436 = add i64 %435, 0
  %437 = getelementptr float, ptr %188, i64 %436
  store <8 x float> %acc63, ptr %437, align 4
  br label %mk.blockdone

mk.i64:                                           ; preds = %mk.next68, %mk.done50
  %438 = phi i64 [ 0, %mk.done50 ], [ %445, %mk.next68 ]
  %439 = icmp slt i64 %438, 16
  br i1 %439, label %mk.body65, label %mk.done66

mk.body65:                                        ; preds = %mk.i64
  %440 = sdiv i64 %438, 2
  %441 = getelementptr i8, ptr %mk.skip, i64 %440
  %442 = load i8, ptr %441, align 1
  %443 = icmp eq i8 %442, %328
  br i1 %443, label %mk.work67, label %mk.next68

mk.done66:                                        ; preds = %mk.i64
  br label %mk.passdone

mk.work67:                                        ; preds = %mk.body65
  %444 = icmp eq i64 %438, %338
  br i1 %444, label %mk.checking69, label %mk.plain70

mk.next68:                                        ; preds = %mk.blockdone71, %mk.body65
  %445 = add i64 %438, 2
  br label %mk.i64

mk.checking69:                                    ; preds = %mk.work67
  br i1 %190, label %mk.accready73, label %mk.accload72

mk.plain70:                                       ; preds = %mk.work67
  br i1 %190, label %mk.accready84, label %mk.accload83

mk.blockdone71:                                   ; preds = %mk.kdone89, %mk.kdone78
  br label %mk.next68

mk.accload72:                                     ; preds = %mk.checking69
  %446 = add i64 %438, 0
  %447 = mul i64 %446, %187
  %448 = add i64 %447, 8
  %449 = getelementptr float, ptr %188, i64 %448
  %450 = load <8 x float>, ptr %449, align 4
  %451 = add i64 %438, 1
  %452 = mul i64 %451, %187
  %453 = add i64 %452, 8
  %454 = getelementptr float, ptr %188, i64 %453
  %455 = load <8 x float>, ptr %454, align 4
  br label %mk.accready73

mk.accready73:                                    ; preds = %mk.accload72, %mk.checking69
  %acc074 = phi <8 x float> [ zeroinitializer, %mk.checking69 ], [ %450, %mk.accload72 ]
  %acc075 = phi <8 x float> [ zeroinitializer, %mk.checking69 ], [ %455, %mk.accload72 ]
  br label %mk.k76

mk.k76:                                           ; preds = %mk.kbody77, %mk.accready73
  %k79 = phi i64 [ 0, %mk.accready73 ], [ %481, %mk.kbody77 ]
  %acc80 = phi <8 x float> [ %acc074, %mk.accready73 ], [ %472, %mk.kbody77 ]
  %acc81 = phi <8 x float> [ %acc075, %mk.accready73 ], [ %480, %mk.kbody77 ]
  %exponents82 = phi <8 x i32> [ zeroinitializer, %mk.accready73 ], [ %464, %mk.kbody77 ]
  %456 = icmp slt i64 %k79, 16
  br i1 %456, label %mk.kbody77, label %mk.kdone78

mk.kbody77:                                       ; preds = %mk.k76
  %457 = mul i64 %k79, 16
  %458 = add i64 %457, 8
  %459 = add i64 0, %458
  %460 = getelementptr float, ptr %mma.b, i64 %459
  %461 = load <8 x float>, ptr %460, align 4
  %462 = bitcast <8 x float> %461 to <8 x i32>
  %463 = and <8 x i32> %462, splat (i32 2139095040)
  %464 = call <8 x i32> @llvm.umax.v8i32(<8 x i32> %exponents82, <8 x i32> %463)
  %465 = add i64 %438, 0
  %466 = mul i64 %465, 16
  %467 = add i64 %466, %k79
  %468 = getelementptr float, ptr %mma.a, i64 %467
  %469 = load float, ptr %468, align 4
  %470 = insertelement <8 x float> poison, float %469, i32 0
  %471 = shufflevector <8 x float> %470, <8 x float> poison, <8 x i32> zeroinitializer
  %472 = call <8 x float> @llvm.fma.v8f32(<8 x float> %471, <8 x float> %461, <8 x float> %acc80)
  %473 = add i64 %438, 1
  %474 = mul i64 %473, 16
  %475 = add i64 %474, %k79
  %476 = getelementptr float, ptr %mma.a, i64 %475
  %477 = load float, ptr %476, align 4
  %478 = insertelement <8 x float> poison, float %477, i32 0
  %479 = shufflevector <8 x float> %478, <8 x float> poison, <8 x i32> zeroinitializer
  %480 = call <8 x float> @llvm.fma.v8f32(<8 x float> %479, <8 x float> %461, <8 x float> %acc81)
  %481 = add i64 %k79, 1
  br label %mk.k76

mk.kdone78:                                       ; preds = %mk.k76
  %482 = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %exponents82)
  %483 = icmp eq i32 %482, 2139095040
  %484 = load i32, ptr %mk.bbad, align 4
  %485 = zext i1 %483 to i32
  %486 = or i32 %484, %485
  store i32 %486, ptr %mk.bbad, align 4
  %487 = add i64 %438, 0
  %488 = mul i64 %487, %187
  %489 = add i64 %488, 8
  %490 = getelementptr float, ptr %188, i64 %489
  store <8 x float> %acc80, ptr %490, align 4
  %491 = add i64 %438, 1
  %492 = mul i64 %491, %187
  %493 = add i64 %492, 8
  %494 = getelementptr float, ptr %188, i64 %493
  store <8 x float> %acc81, ptr %494, align 4
  br label %mk.blockdone71

mk.accload83:                                     ; preds = %mk.plain70
  %495 = add i64 %438, 0
  %496 = mul i64 %495, %187
  %497 = add i64 %496, 8
  %498 = getelementptr float, ptr %188, i64 %497
  %499 = load <8 x float>, ptr %498, align 4
  %500 = add i64 %438, 1
  %501 = mul i64 %500, %187
  %502 = add i64 %501, 8
  %503 = getelementptr float, ptr %188, i64 %502
  %504 = load <8 x float>, ptr %503, align 4
  br label %mk.accready84

mk.accready84:                                    ; preds = %mk.accload83, %mk.plain70
  %acc085 = phi <8 x float> [ zeroinitializer, %mk.plain70 ], [ %499, %mk.accload83 ]
  %acc086 = phi <8 x float> [ zeroinitializer, %mk.plain70 ], [ %504, %mk.accload83 ]
  br label %mk.k87

mk.k87:                                           ; preds = %mk.kbody88, %mk.accready84
  %k90 = phi i64 [ 0, %mk.accready84 ], [ %527, %mk.kbody88 ]
  %acc91 = phi <8 x float> [ %acc085, %mk.accready84 ], [ %518, %mk.kbody88 ]
  %acc92 = phi <8 x float> [ %acc086, %mk.accready84 ], [ %526, %mk.kbody88 ]
  %505 = icmp slt i64 %k90, 16
  br i1 %505, label %mk.kbody88, label %mk.kdone89

mk.kbody88:                                       ; preds = %mk.k87
  %506 = mul i64 %k90, 16
  %507 = add i64 %506, 8
  %508 = add i64 0, %507
  %509 = getelementptr float, ptr %mma.b, i64 %508
  %510 = load <8 x float>, ptr %509, align 4
  %511 = add i64 %438, 0
  %512 = mul i64 %511, 16
  %513 = add i64 %512, %k90
  %514 = getelementptr float, ptr %mma.a, i64 %513
  %515 = load float, ptr %514, align 4
  %516 = insertelement <8 x float> poison, float %515, i32 0
  %517 = shufflevector <8 x float> %516, <8 x float> poison, <8 x i32> zeroinitializer
  %518 = call <8 x float> @llvm.fma.v8f32(<8 x float> %517, <8 x float> %510, <8 x float> %acc91)
  %519 = add i64 %438, 1
  %520 = mul i64 %519, 16
  %521 = add i64 %520, %k90
  %522 = getelementptr float, ptr %mma.a, i64 %521
  %523 = load float, ptr %522, align 4
  %524 = insertelement <8 x float> poison, float %523, i32 0
  %525 = shufflevector <8 x float> %524, <8 x float> poison, <8 x i32> zeroinitializer
  %526 = call <8 x float> @llvm.fma.v8f32(<8 x float> %525, <8 x float> %510, <8 x float> %acc92)
  %527 = add i64 %k90, 1
  br label %mk.k87

mk.kdone89:                                       ; preds = %mk.k87
  %528 = add i64 %438, 0
  %529 = mul i64 %528, %187
  %530 = add i64 %529, 8
  %531 = getelementptr float, ptr %188, i64 %530
  store <8 x float> %acc91, ptr %531, align 4
  %532 = add i64 %438, 1
  %533 = mul i64 %532, %187
  %534 = add i64 %533, 8
  %535 = getelementptr float, ptr %188, i64 %534
  store <8 x float> %acc92, ptr %535, align 4
  br label %mk.blockdone71

acc.fill:                                         ; preds = %mk.done48
  %536 = load ptr, ptr %acc.at, align 8
  %537 = load i64, ptr %acc.stride, align 8
  br label %acc.zrow

acc.settled:                                      ; preds = %done94, %mk.done48
  %538 = load ptr, ptr %acc.at, align 8
  %acc.inplace = icmp ne ptr %538, %acc
  br i1 %acc.inplace, label %acc.stored, label %acc.copy

acc.zrow:                                         ; preds = %body93, %acc.fill
  %i95 = phi i64 [ 0, %acc.fill ], [ %542, %body93 ]
  %539 = icmp slt i64 %i95, 16
  br i1 %539, label %body93, label %done94

body93:                                           ; preds = %acc.zrow
  %540 = mul i64 %i95, %537
  %541 = getelementptr float, ptr %536, i64 %540
  call void @llvm.memset.p0.i64(ptr align 4 %541, i8 0, i64 64, i1 false)
  %542 = add i64 %i95, 1
  br label %acc.zrow

done94:                                           ; preds = %acc.zrow
  store i8 0, ptr %acc.zero, align 1
  br label %acc.settled

acc.copy:                                         ; preds = %acc.settled
  %543 = getelementptr i64, ptr %1, i64 0
  %544 = load i64, ptr %543, align 8
  %545 = mul i64 1, %544
  %546 = add i64 0, %545
  %547 = getelementptr i64, ptr %1, i64 2
  %548 = load i64, ptr %547, align 8
  %549 = mul i64 1, %548
  %550 = add i64 0, %549
  %551 = sext i32 %3 to i64
  %552 = icmp slt i64 %551, 1099511627776
  %553 = select i1 %552, i64 %551, i64 1099511627776
  %554 = icmp sgt i64 %553, -1099511627776
  %555 = select i1 %554, i64 %553, i64 -1099511627776
  %556 = mul i64 %555, 16
  %557 = sext i32 %2 to i64
  %558 = icmp slt i64 %557, 1099511627776
  %559 = select i1 %558, i64 %557, i64 1099511627776
  %560 = icmp sgt i64 %559, -1099511627776
  %561 = select i1 %560, i64 %559, i64 -1099511627776
  %562 = mul i64 %561, 16
  %563 = icmp sge i64 %556, 0
  %564 = and i1 true, %563
  %565 = icmp sge i64 %562, 0
  %566 = and i1 %564, %565
  %567 = add i64 %556, 16
  %568 = add i64 %562, 16
  %569 = icmp sle i64 %567, %546
  %570 = and i1 %566, %569
  %571 = icmp sle i64 %568, %550
  %572 = and i1 %570, %571
  br i1 %572, label %gl.inside96, label %gl.edge97

acc.stored:                                       ; preds = %gl.done98, %acc.settled
  ret void

gl.inside96:                                      ; preds = %acc.copy
  %573 = mul i64 0, %546
  %574 = add i64 %573, %556
  br label %in.row99

gl.edge97:                                        ; preds = %acc.copy
  br label %gl.row103

gl.done98:                                        ; preds = %done105, %done101
  br label %acc.stored

in.row99:                                         ; preds = %body100, %gl.inside96
  %i102 = phi i64 [ 0, %gl.inside96 ], [ %585, %body100 ]
  %575 = icmp slt i64 %i102, 16
  br i1 %575, label %body100, label %done101

body100:                                          ; preds = %in.row99
  %576 = add i64 %574, %i102
  %577 = mul i64 %576, %550
  %578 = add i64 %577, %562
  %579 = mul i64 %i102, 16
  %580 = add i64 %579, 0
  %581 = add i64 %578, 0
  %582 = getelementptr float, ptr %acc, i64 %580
  %583 = getelementptr float, ptr %C, i64 %581
  %584 = load <16 x float>, ptr %582, align 4
  store <16 x float> %584, ptr %583, align 4
  %585 = add i64 %i102, 1
  br label %in.row99

done101:                                          ; preds = %in.row99
  br label %gl.done98

gl.row103:                                        ; preds = %done109, %gl.edge97
  %i106 = phi i64 [ 0, %gl.edge97 ], [ %613, %done109 ]
  %586 = icmp slt i64 %i106, 16
  br i1 %586, label %body104, label %done105

body104:                                          ; preds = %gl.row103
  %587 = add i64 %556, %i106
  %588 = icmp slt i64 %587, %546
  %589 = icmp sge i64 %587, 0
  %590 = and i1 %589, %588
  %591 = and i1 true, %590
  %592 = mul i64 0, %546
  %593 = add i64 %592, %587
  %594 = mul i64 %593, %550
  %595 = sub i64 0, %562
  %596 = icmp sgt i64 %595, 0
  %597 = select i1 %596, i64 %595, i64 0
  %598 = sub i64 %550, %562
  %599 = icmp slt i64 %598, 16
  %600 = select i1 %599, i64 %598, i64 16
  %601 = select i1 %591, i64 %600, i64 0
  %602 = sub i64 %601, %597
  br label %gl.col107

done105:                                          ; preds = %gl.row103
  br label %gl.done98

gl.col107:                                        ; preds = %body108, %body104
  %i110 = phi i64 [ 0, %body104 ], [ %612, %body108 ]
  %603 = icmp slt i64 %i110, %602
  br i1 %603, label %body108, label %done109

body108:                                          ; preds = %gl.col107
  %604 = add i64 %i110, %597
  %605 = mul i64 %i106, 16
  %606 = add i64 %605, %604
  %607 = add i64 %562, %604
  %608 = add i64 %594, %607
  %609 = getelementptr float, ptr %acc, i64 %606
  %610 = load float, ptr %609, align 4
  %611 = getelementptr float, ptr %C, i64 %608
  store float %610, ptr %611, align 4
  %612 = add i64 %i110, 1
  br label %gl.col107

done109:                                          ; preds = %gl.col107
  %613 = add i64 %i106, 1
  br label %gl.row103
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x i32> @llvm.umax.v8i32(<8 x i32>, <8 x i32>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.umax.v8i32(<8 x i32>) #2

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
  %acc = alloca [256 x float], align 64
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
  br label %fill

fill:                                             ; preds = %body, %start
  %i = phi i64 [ 0, %start ], [ %16, %body ]
  %14 = icmp slt i64 %i, 256
  br i1 %14, label %body, label %done

body:                                             ; preds = %fill
  %15 = getelementptr float, ptr %acc, i64 %i
  store float 0.000000e+00, ptr %15, align 4
  %16 = add i64 %i, 1
  br label %fill

done:                                             ; preds = %fill
  %17 = getelementptr i64, ptr %1, i64 0
  %18 = load i64, ptr %17, align 8
  %19 = mul i64 1, %18
  %20 = add i64 0, %19
  %21 = getelementptr i64, ptr %1, i64 1
  %22 = load i64, ptr %21, align 8
  %23 = mul i64 1, %22
  %24 = add i64 0, %23
  %25 = sext i32 %3 to i64
  %26 = icmp slt i64 %25, 1099511627776
  %27 = select i1 %26, i64 %25, i64 1099511627776
  %28 = icmp sgt i64 %27, -1099511627776
  %29 = select i1 %28, i64 %27, i64 -1099511627776
  %30 = mul i64 %29, 16
  %31 = icmp sge i64 %30, 0
  %32 = and i1 true, %31
  %33 = and i1 %32, true
  %34 = add i64 %30, 16
  %35 = icmp sle i64 %34, %20
  %36 = and i1 %33, %35
  %37 = icmp sle i64 16, %24
  %38 = and i1 %36, %37
  br i1 %38, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %done
  %39 = mul i64 0, %20
  %40 = add i64 %39, %30
  br label %in.row

gl.edge:                                          ; preds = %done
  call void @llvm.memset.p0.i64(ptr align 64 %a, i8 0, i64 512, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done8, %done2
  %41 = getelementptr i64, ptr %1, i64 1
  %42 = load i64, ptr %41, align 8
  %43 = mul i64 1, %42
  %44 = add i64 0, %43
  %45 = getelementptr i64, ptr %1, i64 2
  %46 = load i64, ptr %45, align 8
  %47 = mul i64 1, %46
  %48 = add i64 0, %47
  %49 = sext i32 %2 to i64
  %50 = icmp slt i64 %49, 1099511627776
  %51 = select i1 %50, i64 %49, i64 1099511627776
  %52 = icmp sgt i64 %51, -1099511627776
  %53 = select i1 %52, i64 %51, i64 -1099511627776
  %54 = mul i64 %53, 16
  %55 = icmp sge i64 %54, 0
  %56 = and i1 true, %55
  %57 = add i64 %54, 16
  %58 = icmp sle i64 16, %44
  %59 = and i1 %56, %58
  %60 = icmp sle i64 %57, %48
  %61 = and i1 %59, %60
  br i1 %61, label %gl.inside13, label %gl.edge14

in.row:                                           ; preds = %done5, %gl.inside
  %i3 = phi i64 [ 0, %gl.inside ], [ %74, %done5 ]
  %62 = icmp slt i64 %i3, 16
  br i1 %62, label %body1, label %done2

body1:                                            ; preds = %in.row
  %63 = add i64 %40, %i3
  %64 = mul i64 %63, %24
  %65 = add i64 %64, 0
  br label %in.col

done2:                                            ; preds = %in.row
  br label %gl.done

in.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %73, %body4 ]
  %66 = icmp slt i64 %i6, 16
  br i1 %66, label %body4, label %done5

body4:                                            ; preds = %in.col
  %67 = mul i64 %i3, 16
  %68 = add i64 %67, %i6
  %69 = add i64 %65, %i6
  %70 = getelementptr i16, ptr %A, i64 %69
  %71 = load i16, ptr %70, align 2
  %72 = getelementptr i16, ptr %a, i64 %68
  store i16 %71, ptr %72, align 2
  %73 = add i64 %i6, 1
  br label %in.col

done5:                                            ; preds = %in.col
  %74 = add i64 %i3, 1
  br label %in.row

gl.row:                                           ; preds = %done11, %gl.edge
  %i9 = phi i64 [ 0, %gl.edge ], [ %99, %done11 ]
  %75 = icmp slt i64 %i9, 16
  br i1 %75, label %body7, label %done8

body7:                                            ; preds = %gl.row
  %76 = add i64 %30, %i9
  %77 = icmp slt i64 %76, %20
  %78 = icmp sge i64 %76, 0
  %79 = and i1 %78, %77
  %80 = and i1 true, %79
  %81 = mul i64 0, %20
  %82 = add i64 %81, %76
  %83 = mul i64 %82, %24
  %84 = sub i64 %24, 0
  %85 = icmp slt i64 %84, 16
  %86 = select i1 %85, i64 %84, i64 16
  %87 = select i1 %80, i64 %86, i64 0
  %88 = sub i64 %87, 0
  br label %gl.col

done8:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body10, %body7
  %i12 = phi i64 [ 0, %body7 ], [ %98, %body10 ]
  %89 = icmp slt i64 %i12, %88
  br i1 %89, label %body10, label %done11

body10:                                           ; preds = %gl.col
  %90 = add i64 %i12, 0
  %91 = mul i64 %i9, 16
  %92 = add i64 %91, %90
  %93 = add i64 0, %90
  %94 = add i64 %83, %93
  %95 = getelementptr i16, ptr %A, i64 %94
  %96 = load i16, ptr %95, align 2
  %97 = getelementptr i16, ptr %a, i64 %92
  store i16 %96, ptr %97, align 2
  %98 = add i64 %i12, 1
  br label %gl.col

done11:                                           ; preds = %gl.col
  %99 = add i64 %i9, 1
  br label %gl.row

gl.inside13:                                      ; preds = %gl.done
  %100 = mul i64 0, %44
  %101 = add i64 %100, 0
  br label %in.row16

gl.edge14:                                        ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row24

gl.done15:                                        ; preds = %done26, %done18
  br label %pack.a

in.row16:                                         ; preds = %done22, %gl.inside13
  %i19 = phi i64 [ 0, %gl.inside13 ], [ %114, %done22 ]
  %102 = icmp slt i64 %i19, 16
  br i1 %102, label %body17, label %done18

body17:                                           ; preds = %in.row16
  %103 = add i64 %101, %i19
  %104 = mul i64 %103, %48
  %105 = add i64 %104, %54
  br label %in.col20

done18:                                           ; preds = %in.row16
  br label %gl.done15

in.col20:                                         ; preds = %body21, %body17
  %i23 = phi i64 [ 0, %body17 ], [ %113, %body21 ]
  %106 = icmp slt i64 %i23, 16
  br i1 %106, label %body21, label %done22

body21:                                           ; preds = %in.col20
  %107 = mul i64 %i23, 16
  %108 = add i64 %107, %i19
  %109 = add i64 %105, %i23
  %110 = getelementptr i16, ptr %B, i64 %109
  %111 = load i16, ptr %110, align 2
  %112 = getelementptr i16, ptr %b, i64 %108
  store i16 %111, ptr %112, align 2
  %113 = add i64 %i23, 1
  br label %in.col20

done22:                                           ; preds = %in.col20
  %114 = add i64 %i19, 1
  br label %in.row16

gl.row24:                                         ; preds = %done30, %gl.edge14
  %i27 = phi i64 [ 0, %gl.edge14 ], [ %142, %done30 ]
  %115 = icmp slt i64 %i27, 16
  br i1 %115, label %body25, label %done26

body25:                                           ; preds = %gl.row24
  %116 = add i64 0, %i27
  %117 = icmp slt i64 %116, %44
  %118 = icmp sge i64 %116, 0
  %119 = and i1 %118, %117
  %120 = and i1 true, %119
  %121 = mul i64 0, %44
  %122 = add i64 %121, %116
  %123 = mul i64 %122, %48
  %124 = sub i64 0, %54
  %125 = icmp sgt i64 %124, 0
  %126 = select i1 %125, i64 %124, i64 0
  %127 = sub i64 %48, %54
  %128 = icmp slt i64 %127, 16
  %129 = select i1 %128, i64 %127, i64 16
  %130 = select i1 %120, i64 %129, i64 0
  %131 = sub i64 %130, %126
  br label %gl.col28

done26:                                           ; preds = %gl.row24
  br label %gl.done15

gl.col28:                                         ; preds = %body29, %body25
  %i31 = phi i64 [ 0, %body25 ], [ %141, %body29 ]
  %132 = icmp slt i64 %i31, %131
  br i1 %132, label %body29, label %done30

body29:                                           ; preds = %gl.col28
  %133 = add i64 %i31, %126
  %134 = mul i64 %133, 16
  %135 = add i64 %134, %i27
  %136 = add i64 %54, %133
  %137 = add i64 %123, %136
  %138 = getelementptr i16, ptr %B, i64 %137
  %139 = load i16, ptr %138, align 2
  %140 = getelementptr i16, ptr %b, i64 %135
  store i16 %139, ptr %140, align 2
  %141 = add i64 %i31, 1
  br label %gl.col28

done30:                                           ; preds = %gl.col28
  %142 = add i64 %i27, 1
  br label %gl.row24

pack.a:                                           ; preds = %done36, %gl.done15
  %i34 = phi i64 [ 0, %gl.done15 ], [ %156, %done36 ]
  %143 = icmp slt i64 %i34, 16
  br i1 %143, label %body32, label %done33

body32:                                           ; preds = %pack.a
  br label %pack.ak

done33:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body35, %body32
  %i37 = phi i64 [ 0, %body32 ], [ %155, %body35 ]
  %144 = icmp slt i64 %i37, 16
  br i1 %144, label %body35, label %done36

body35:                                           ; preds = %pack.ak
  %145 = mul i64 %i34, 16
  %146 = add i64 %145, %i37
  %147 = mul i64 %i34, 16
  %148 = add i64 %147, %i37
  %149 = getelementptr i16, ptr %a, i64 %146
  %150 = load i16, ptr %149, align 2
  %151 = zext i16 %150 to i32
  %152 = shl i32 %151, 16
  %153 = bitcast i32 %152 to float
  %154 = getelementptr float, ptr %mma.a, i64 %148
  store float %153, ptr %154, align 4
  %155 = add i64 %i37, 1
  br label %pack.ak

done36:                                           ; preds = %pack.ak
  %156 = add i64 %i34, 1
  br label %pack.a

pack.b:                                           ; preds = %done42, %done33
  %i40 = phi i64 [ 0, %done33 ], [ %178, %done42 ]
  %157 = icmp slt i64 %i40, 16
  br i1 %157, label %body38, label %done39

body38:                                           ; preds = %pack.b
  br label %pack.bn

done39:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body41, %body38
  %i43 = phi i64 [ 0, %body38 ], [ %177, %body41 ]
  %158 = icmp slt i64 %i43, 16
  br i1 %158, label %body41, label %done42

body41:                                           ; preds = %pack.bn
  %159 = mul i64 %i43, 16
  %160 = add i64 %159, %i40
  %161 = udiv i64 %i43, 32
  %162 = urem i64 %i43, 32
  %163 = mul i64 %161, 32
  %164 = sub i64 16, %163
  %165 = icmp slt i64 %164, 32
  %166 = select i1 %165, i64 %164, i64 32
  %167 = mul i64 %161, 512
  %168 = mul i64 %i40, %166
  %169 = add i64 %168, %162
  %170 = add i64 %167, %169
  %171 = getelementptr i16, ptr %b, i64 %160
  %172 = load i16, ptr %171, align 2
  %173 = zext i16 %172 to i32
  %174 = shl i32 %173, 16
  %175 = bitcast i32 %174 to float
  %176 = getelementptr float, ptr %mma.b, i64 %170
  store float %175, ptr %176, align 4
  %177 = add i64 %i43, 1
  br label %pack.bn

done42:                                           ; preds = %pack.bn
  %178 = add i64 %i40, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.done45, %done39
  %179 = phi i64 [ 0, %done39 ], [ %209, %mk.done45 ]
  %180 = icmp slt i64 %179, 8
  br i1 %180, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %181 = sub i64 7, %179
  %182 = mul i64 %181, 32
  store i32 0, ptr %mk.orv, align 4
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %183 = load i32, ptr %mk.any, align 4
  %184 = icmp ne i32 %183, 0
  %185 = load i32, ptr %mk.all, align 4
  %186 = icmp ne i32 %185, 0
  %187 = load i64, ptr %mk.first, align 8
  store i32 0, ptr %mk.bbad, align 4
  br i1 %184, label %mk.someskip, label %mk.else

mk.or:                                            ; preds = %mk.body44, %mk.body
  %188 = phi i64 [ 0, %mk.body ], [ %196, %mk.body44 ]
  %189 = icmp slt i64 %188, 32
  br i1 %189, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.or
  %190 = add i64 %182, %188
  %191 = getelementptr i32, ptr %mma.a, i64 %190
  %192 = load i32, ptr %191, align 4
  %193 = and i32 %192, 2147483647
  %194 = load i32, ptr %mk.orv, align 4
  %195 = or i32 %194, %193
  store i32 %195, ptr %mk.orv, align 4
  %196 = add i64 %188, 1
  br label %mk.or

mk.done45:                                        ; preds = %mk.or
  %197 = load i32, ptr %mk.orv, align 4
  %198 = icmp eq i32 %197, 0
  %199 = zext i1 %198 to i32
  %200 = getelementptr i8, ptr %mk.skip, i64 %181
  %201 = trunc i32 %199 to i8
  store i8 %201, ptr %200, align 1
  %202 = load i32, ptr %mk.any, align 4
  %203 = or i32 %202, %199
  store i32 %203, ptr %mk.any, align 4
  %204 = load i32, ptr %mk.all, align 4
  %205 = and i32 %204, %199
  store i32 %205, ptr %mk.all, align 4
  %206 = load i64, ptr %mk.first, align 8
  %207 = mul i64 %181, 2
  %208 = select i1 %198, i64 %206, i64 %207
  store i64 %208, ptr %mk.first, align 8
  %209 = add i64 %179, 1
  br label %mk.zrows

mk.blocksdone:                                    ; preds = %mk.done111, %mk.else77
  %210 = getelementptr i64, ptr %1, i64 0
  %211 = load i64, ptr %210, align 8
  %212 = mul i64 1, %211
  %213 = add i64 0, %212
  %214 = getelementptr i64, ptr %1, i64 2
  %215 = load i64, ptr %214, align 8
  %216 = mul i64 1, %215
  %217 = add i64 0, %216
  %218 = sext i32 %3 to i64
  %219 = icmp slt i64 %218, 1099511627776
  %220 = select i1 %219, i64 %218, i64 1099511627776
  %221 = icmp sgt i64 %220, -1099511627776
  %222 = select i1 %221, i64 %220, i64 -1099511627776
  %223 = mul i64 %222, 16
  %224 = sext i32 %2 to i64
  %225 = icmp slt i64 %224, 1099511627776
  %226 = select i1 %225, i64 %224, i64 1099511627776
  %227 = icmp sgt i64 %226, -1099511627776
  %228 = select i1 %227, i64 %226, i64 -1099511627776
  %229 = mul i64 %228, 16
  %230 = icmp sge i64 %223, 0
  %231 = and i1 true, %230
  %232 = icmp sge i64 %229, 0
  %233 = and i1 %231, %232
  %234 = add i64 %223, 16
  %235 = add i64 %229, 16
  %236 = icmp sle i64 %234, %213
  %237 = and i1 %233, %236
  %238 = icmp sle i64 %235, %217
  %239 = and i1 %237, %238
  br i1 %239, label %gl.inside118, label %gl.edge119

mk.someskip:                                      ; preds = %mk.done
  br label %mk.i

mk.else:                                          ; preds = %mk.done
  br label %mk.i100

mk.i:                                             ; preds = %mk.next, %mk.someskip
  %240 = phi i64 [ 0, %mk.someskip ], [ %247, %mk.next ]
  %241 = icmp slt i64 %240, 16
  br i1 %241, label %mk.body46, label %mk.done47

mk.body46:                                        ; preds = %mk.i
  %242 = sdiv i64 %240, 2
  %243 = getelementptr i8, ptr %mk.skip, i64 %242
  %244 = load i8, ptr %243, align 1
  %245 = icmp eq i8 %244, 0
  br i1 %245, label %mk.work, label %mk.next

mk.done47:                                        ; preds = %mk.i
  br label %mk.i56

mk.work:                                          ; preds = %mk.body46
  %246 = icmp eq i64 %240, %187
  br i1 %246, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body46
  %247 = add i64 %240, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  %248 = add i64 %240, 0
  %249 = mul i64 %248, 16
  %250 = add i64 %249, 0
  %251 = getelementptr float, ptr %acc, i64 %250
  %252 = load <8 x float>, ptr %251, align 4
  %253 = add i64 %240, 1
  %254 = mul i64 %253, 16
  %255 = add i64 %254, 0
  %256 = getelementptr float, ptr %acc, i64 %255
  %257 = load <8 x float>, ptr %256, align 4
  br label %mk.k

mk.plain:                                         ; preds = %mk.work
  %258 = add i64 %240, 0
  %259 = mul i64 %258, 16
  %260 = add i64 %259, 0
  %261 = getelementptr float, ptr %acc, i64 %260
  %262 = load <8 x float>, ptr %261, align 4
  %263 = add i64 %240, 1
  %264 = mul i64 %263, 16
  %265 = add i64 %264, 0
  %266 = getelementptr float, ptr %acc, i64 %265
  %267 = load <8 x float>, ptr %266, align 4
  br label %mk.k50

mk.blockdone:                                     ; preds = %mk.kdone52, %mk.kdone
  br label %mk.next

mk.k:                                             ; preds = %mk.kbody, %mk.checking
  %k = phi i64 [ 0, %mk.checking ], [ %294, %mk.kbody ]
  %acc48 = phi <8 x float> [ %252, %mk.checking ], [ %285, %mk.kbody ]
  %acc49 = phi <8 x float> [ %257, %mk.checking ], [ %293, %mk.kbody ]
  %nonfinite = phi <8 x i1> [ zeroinitializer, %mk.checking ], [ %277, %mk.kbody ]
  %268 = icmp slt i64 %k, 16
  br i1 %268, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %269 = mul i64 %k, 16
  %270 = add i64 %269, 0
  %271 = add i64 0, %270
  %272 = getelementptr float, ptr %mma.b, i64 %271
  %273 = load <8 x float>, ptr %272, align 4
  %274 = bitcast <8 x float> %273 to <8 x i32>
  %275 = and <8 x i32> %274, splat (i32 2139095040)
  %276 = icmp eq <8 x i32> %275, splat (i32 2139095040)
  %277 = or <8 x i1> %nonfinite, %276
  %278 = add i64 %240, 0
  %279 = mul i64 %278, 16
  %280 = add i64 %279, %k
  %281 = getelementptr float, ptr %mma.a, i64 %280
  %282 = load float, ptr %281, align 4
  %283 = insertelement <8 x float> poison, float %282, i32 0
  %284 = shufflevector <8 x float> %283, <8 x float> poison, <8 x i32> zeroinitializer
  %285 = call <8 x float> @llvm.fma.v8f32(<8 x float> %284, <8 x float> %273, <8 x float> %acc48)
  %286 = add i64 %240, 1
  %287 = mul i64 %286, 16
  %288 = add i64 %287, %k
  %289 = getelementptr float, ptr %mma.a, i64 %288
  %290 = load float, ptr %289, align 4
  %291 = insertelement <8 x float> poison, float %290, i32 0
  %292 = shufflevector <8 x float> %291, <8 x float> poison, <8 x i32> zeroinitializer
  %293 = call <8 x float> @llvm.fma.v8f32(<8 x float> %292, <8 x float> %273, <8 x float> %acc49)
  %294 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %295 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite)
  %296 = load i32, ptr %mk.bbad, align 4
  %297 = zext i1 %295 to i32
  %298 = or i32 %296, %297
  store i32 %298, ptr %mk.bbad, align 4
  %299 = add i64 %240, 0
  %300 = mul i64 %299, 16
  %301 = add i64 %300, 0
  %302 = getelementptr float, ptr %acc, i64 %301
  store <8 x float> %acc48, ptr %302, align 4
  %303 = add i64 %240, 1
  %304 = mul i64 %303, 16
  %305 = add i64 %304, 0
  %306 = getelementptr float, ptr %acc, i64 %305
  store <8 x float> %acc49, ptr %306, align 4
  br label %mk.blockdone

mk.k50:                                           ; preds = %mk.kbody51, %mk.plain
  %k53 = phi i64 [ 0, %mk.plain ], [ %329, %mk.kbody51 ]
  %acc54 = phi <8 x float> [ %262, %mk.plain ], [ %320, %mk.kbody51 ]
  %acc55 = phi <8 x float> [ %267, %mk.plain ], [ %328, %mk.kbody51 ]
  %307 = icmp slt i64 %k53, 16
  br i1 %307, label %mk.kbody51, label %mk.kdone52

mk.kbody51:                                       ; preds = %mk.k50
  %308 = mul i64 %k53, 16
  %309 = add i64 %308, 0
  %310 = add i64 0, %309
  %311 = getelementptr float, ptr %mma.b, i64 %310
  %312 = load <8 x float>, ptr %311, align 4
  %313 = add i64 %240, 0
  %314 = mul i64 %313, 16
  %315 = add i64 %314, %k53
  %316 = getelementptr float, ptr %mma.a, i64 %315
  %317 = load float, ptr %316, align 4
  %318 = insertelement <8 x float> poison, float %317, i32 0
  %319 = shufflevector <8 x float> %318, <8 x float> poison, <8 x i32> zeroinitializer
  %320 = call <8 x float> @llvm.fma.v8f32(<8 x float> %319, <8 x float> %312, <8 x float> %acc54)
  %321 = add i64 %240, 1
  %322 = mul i64 %321, 16
  %323 = add i64 %322, %k53
  %324 = getelementptr float, ptr %mma.a, i64 %323
  %325 = load float, ptr %324, align 4
  %326 = insertelement <8 x float> poison, float %325, i32 0
  %327 = shufflevector <8 x float> %326, <8 x float> poison, <8 x i32> zeroinitializer
  %328 = call <8 x float> @llvm.fma.v8f32(<8 x float> %327, <8 x float> %312, <8 x float> %acc55)
  %329 = add i64 %k53, 1
  br label %mk.k50

mk.kdone52:                                       ; preds = %mk.k50
  %330 = add i64 %240, 0
  %331 = mul i64 %330, 16
  %332 = add i64 %331, 0
  %333 = getelementptr float, ptr %acc, i64 %332
  store <8 x float> %acc54, ptr %333, align 4
  %334 = add i64 %240, 1
  %335 = mul i64 %334, 16
  %336 = add i64 %335, 0
  %337 = getelementptr float, ptr %acc, i64 %336
  store <8 x float> %acc55, ptr %337, align 4
  br label %mk.blockdone

mk.i56:                                           ; preds = %mk.next60, %mk.done47
  %338 = phi i64 [ 0, %mk.done47 ], [ %348, %mk.next60 ]
  %339 = icmp slt i64 %338, 16
  br i1 %339, label %mk.body57, label %mk.done58

mk.body57:                                        ; preds = %mk.i56
  %340 = sdiv i64 %338, 2
  %341 = getelementptr i8, ptr %mk.skip, i64 %340
  %342 = load i8, ptr %341, align 1
  %343 = icmp eq i8 %342, 0
  br i1 %343, label %mk.work59, label %mk.next60

mk.done58:                                        ; preds = %mk.i56
  %344 = load i32, ptr %mk.bbad, align 4
  %345 = icmp ne i32 %344, 0
  %346 = or i1 %186, %345
  br i1 %346, label %mk.redo, label %mk.else77

mk.work59:                                        ; preds = %mk.body57
  %347 = icmp eq i64 %338, %187
  br i1 %347, label %mk.checking61, label %mk.plain62

mk.next60:                                        ; preds = %mk.blockdone63, %mk.body57
  %348 = add i64 %338, 2
  br label %mk.i56

mk.checking61:                                    ; preds = %mk.work59
  %349 = add i64 %338, 0
  %350 = mul i64 %349, 16
  %351 = add i64 %350, 8
  %352 = getelementptr float, ptr %acc, i64 %351
  %353 = load <8 x float>, ptr %352, align 4
  %354 = add i64 %338, 1
  %355 = mul i64 %354, 16
  %356 = add i64 %355, 8
  %357 = getelementptr float, ptr %acc, i64 %356
  %358 = load <8 x float>, ptr %357, align 4
  br label %mk.k64

mk.plain62:                                       ; preds = %mk.work59
  %359 = add i64 %338, 0
  %360 = mul i64 %359, 16
  %361 = add i64 %360, 8
  %362 = getelementptr float, ptr %acc, i64 %361
  %363 = load <8 x float>, ptr %362, align 4
  %364 = add i64 %338, 1
  %365 = mul i64 %364, 16
  %366 = add i64 %365, 8
  %367 = getelementptr float, ptr %acc, i64 %366
  %368 = load <8 x float>, ptr %367, align 4
  br label %mk.k71

mk.blockdone63:                                   ; preds = %mk.kdone73, %mk.kdone66
  br label %mk.next60

mk.k64:                                           ; preds = %mk.kbody65, %mk.checking61
  %k67 = phi i64 [ 0, %mk.checking61 ], [ %395, %mk.kbody65 ]
  %acc68 = phi <8 x float> [ %353, %mk.checking61 ], [ %386, %mk.kbody65 ]
  %acc69 = phi <8 x float> [ %358, %mk.checking61 ], [ %394, %mk.kbody65 ]
  %nonfinite70 = phi <8 x i1> [ zeroinitializer, %mk.checking61 ], [ %378, %mk.kbody65 ]
  %369 = icmp slt i64 %k67, 16
  br i1 %369, label %mk.kbody65, label %mk.kdone66

mk.kbody65:                                       ; preds = %mk.k64
  %370 = mul i64 %k67, 16
  %371 = add i64 %370, 8
  %372 = add i64 0, %371
  %373 = getelementptr float, ptr %mma.b, i64 %372
  %374 = load <8 x float>, ptr %373, align 4
  %375 = bitcast <8 x float> %374 to <8 x i32>
  %376 = and <8 x i32> %375, splat (i32 2139095040)
  %377 = icmp eq <8 x i32> %376, splat (i32 2139095040)
  %378 = or <8 x i1> %nonfinite70, %377
  %379 = add i64 %338, 0
  %380 = mul i64 %379, 16
  %381 = add i64 %380, %k67
  %382 = getelementptr float, ptr %mma.a, i64 %381
  %383 = load float, ptr %382, align 4
  %384 = insertelement <8 x float> poison, float %383, i32 0
  %385 = shufflevector <8 x float> %384, <8 x float> poison, <8 x i32> zeroinitializer
  %386 = call <8 x float> @llvm.fma.v8f32(<8 x float> %385, <8 x float> %374, <8 x float> %acc68)
  %387 = add i64 %338, 1
  %388 = mul i64 %387, 16
  %389 = add i64 %388, %k67
  %390 = getelementptr float, ptr %mma.a, i64 %389
  %391 = load float, ptr %390, align 4
  %392 = insertelement <8 x float> poison, float %391, i32 0
  %393 = shufflevector <8 x float> %392, <8 x float> poison, <8 x i32> zeroinitializer
  %394 = call <8 x float> @llvm.fma.v8f32(<8 x float> %393, <8 x float> %374, <8 x float> %acc69)
  %395 = add i64 %k67, 1
  br label %mk.k64

mk.kdone66:                                       ; preds = %mk.k64
  %396 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite70)
  %397 = load i32, ptr %mk.bbad, align 4
  %398 = zext i1 %396 to i32
  %399 = or i32 %397, %398
  store i32 %399, ptr %mk.bbad, align 4
  %400 = add i64 %338, 0
  %401 = mul i64 %400, 16
  %402 = add i64 %401, 8
  %403 = getelementptr float, ptr %acc, i64 %402
  store <8 x float> %acc68, ptr %403, align 4
  %404 = add i64 %338, 1
  %405 = mul i64 %404, 16
  %406 = add i64 %405, 8
  %407 = getelementptr float, ptr %acc, i64 %406
  store <8 x float> %acc69, ptr %407, align 4
  br label %mk.blockdone63

mk.k71:                                           ; preds = %mk.kbody72, %mk.plain62
  %k74 = phi i64 [ 0, %mk.plain62 ], [ %430, %mk.kbody72 ]
  %acc75 = phi <8 x float> [ %363, %mk.plain62 ], [ %421, %mk.kbody72 ]
  %acc76 = phi <8 x float> [ %368, %mk.plain62 ], [ %429, %mk.kbody72 ]
  %408 = icmp slt i64 %k74, 16
  br i1 %408, label %mk.kbody72, label %mk.kdone73

mk.kbody72:                                       ; preds = %mk.k71
  %409 = mul i64 %k74, 16
  %410 = add i64 %409, 8
  %411 = add i64 0, %410
  %412 = getelementptr float, ptr %mma.b, i64 %411
  %413 = load <8 x float>, ptr %412, align 4
  %414 = add i64 %338, 0
  %415 = mul i64 %414, 16
  %416 = add i64 %415, %k74
  %417 = getelementptr float, ptr %mma.a, i64 %416
  %418 = load float, ptr %417, align 4
  %419 = insertelement <8 x float> poison, float %418, i32 0
  %420 = shufflevector <8 x float> %419, <8 x float> poison, <8 x i32> zeroinitializer
  %421 = call <8 x float> @llvm.fma.v8f32(<8 x float> %420, <8 x float> %413, <8 x float> %acc75)
  %422 = add i64 %338, 1
  %423 = mul i64 %422, 16
  %424 = add i64 %423, %k74
  %425 = getelementptr float, ptr %mma.a, i64 %424
  %426 = load float, ptr %425, align 4
  %427 = insertelement <8 x float> poison, float %426, i32 0
  %428 = shufflevector <8 x float> %427, <8 x float> poison, <8 x i32> zeroinitializer
  %429 = call <8 x float> @llvm.fma.v8f32(<8 x float> %428, <8 x float> %413, <8 x float> %acc76)
  %430 = add i64 %k74, 1
  br label %mk.k71

mk.kdone73:                                       ; preds = %mk.k71
  %431 = add i64 %338, 0
  %432 = mul i64 %431, 16
  %433 = add i64 %432, 8
  %434 = getelementptr float, ptr %acc, i64 %433
  store <8 x float> %acc75, ptr %434, align 4
  %435 = add i64 %338, 1
  %436 = mul i64 %435, 16
  %437 = add i64 %436, 8
  %438 = getelementptr float, ptr %acc, i64 %437
  store <8 x float> %acc76, ptr %438, align 4
  br label %mk.blockdone63

mk.redo:                                          ; preds = %mk.done58
  br label %mk.i78

mk.else77:                                        ; preds = %mk.done91, %mk.done58
  br label %mk.blocksdone

mk.i78:                                           ; preds = %mk.next82, %mk.redo
  %439 = phi i64 [ 0, %mk.redo ], [ %455, %mk.next82 ]
  %440 = icmp slt i64 %439, 16
  br i1 %440, label %mk.body79, label %mk.done80

mk.body79:                                        ; preds = %mk.i78
  %441 = sdiv i64 %439, 2
  %442 = getelementptr i8, ptr %mk.skip, i64 %441
  %443 = load i8, ptr %442, align 1
  %444 = icmp eq i8 %443, 1
  br i1 %444, label %mk.work81, label %mk.next82

mk.done80:                                        ; preds = %mk.i78
  br label %mk.i89

mk.work81:                                        ; preds = %mk.body79
  %445 = add i64 %439, 0
  %446 = mul i64 %445, 16
  %447 = add i64 %446, 0
  %448 = getelementptr float, ptr %acc, i64 %447
  %449 = load <8 x float>, ptr %448, align 4
  %450 = add i64 %439, 1
  %451 = mul i64 %450, 16
  %452 = add i64 %451, 0
  %453 = getelementptr float, ptr %acc, i64 %452
  %454 = load <8 x float>, ptr %453, align 4
  br label %mk.k83

mk.next82:                                        ; preds = %mk.kdone85, %mk.body79
  %455 = add i64 %439, 2
  br label %mk.i78

mk.k83:                                           ; preds = %mk.kbody84, %mk.work81
  %k86 = phi i64 [ 0, %mk.work81 ], [ %478, %mk.kbody84 ]
  %acc87 = phi <8 x float> [ %449, %mk.work81 ], [ %469, %mk.kbody84 ]
  %acc88 = phi <8 x float> [ %454, %mk.work81 ], [ %477, %mk.kbody84 ]
  %456 = icmp slt i64 %k86, 16
  br i1 %456, label %mk.kbody84, label %mk.kdone85

mk.kbody84:                                       ; preds = %mk.k83
  %457 = mul i64 %k86, 16
  %458 = add i64 %457, 0
  %459 = add i64 0, %458
  %460 = getelementptr float, ptr %mma.b, i64 %459
  %461 = load <8 x float>, ptr %460, align 4
  %462 = add i64 %439, 0
  %463 = mul i64 %462, 16
  %464 = add i64 %463, %k86
  %465 = getelementptr float, ptr %mma.a, i64 %464
  %466 = load float, ptr %465, align 4
  %467 = insertelement <8 x float> poison, float %466, i32 0
  %468 = shufflevector <8 x float> %467, <8 x float> poison, <8 x i32> zeroinitializer
  %469 = call <8 x float> @llvm.fma.v8f32(<8 x float> %468, <8 x float> %461, <8 x float> %acc87)
  %470 = add i64 %439, 1
  %471 = mul i64 %470, 16
  %472 = add i64 %471, %k86
  %473 = getelementptr float, ptr %mma.a, i64 %472
  %474 = load float, ptr %473, align 4
  %475 = insertelement <8 x float> poison, float %474, i32 0
  %476 = shufflevector <8 x float> %475, <8 x float> poison, <8 x i32> zeroinitializer
  %477 = call <8 x float> @llvm.fma.v8f32(<8 x float> %476, <8 x float> %461, <8 x float> %acc88)
  %478 = add i64 %k86, 1
  br label %mk.k83

mk.kdone85:                                       ; preds = %mk.k83
  %479 = add i64 %439, 0
  %480 = mul i64 %479, 16
  %481 = add i64 %480, 0
  %482 = getelementptr float, ptr %acc, i64 %481
  store <8 x float> %acc87, ptr %482, align 4
  %483 = add i64 %439, 1
  %484 = mul i64 %483, 16
  %485 = add i64 %484, 0
  %486 = getelementptr float, ptr %acc, i64 %485
  store <8 x float> %acc88, ptr %486, align 4
  br label %mk.next82

mk.i89:                                           ; preds = %mk.next93, %mk.done80
  %487 = phi i64 [ 0, %mk.done80 ], [ %503, %mk.next93 ]
  %488 = icmp slt i64 %487, 16
  br i1 %488, label %mk.body90, label %mk.done91

mk.body90:                                        ; preds = %mk.i89
  %489 = sdiv i64 %487, 2
  %490 = getelementptr i8, ptr %mk.skip, i64 %489
  %491 = load i8, ptr %490, align 1
  %492 = icmp eq i8 %491, 1
  br i1 %492, label %mk.work92, label %mk.next93

mk.done91:                                        ; preds = %mk.i89
  br label %mk.else77

mk.work92:                                        ; preds = %mk.body90
  %493 = add i64 %487, 0
  %494 = mul i64 %493, 16
  %495 = add i64 %494, 8
  %496 = getelementptr float, ptr %acc, i64 %495
  %497 = load <8 x float>, ptr %496, align 4
  %498 = add i64 %487, 1
  %499 = mul i64 %498, 16
  %500 = add i64 %499, 8
  %501 = getelementptr float, ptr %acc, i64 %500
  %502 = load <8 x float>, ptr %501, align 4
  br label %mk.k94

mk.next93:                                        ; preds = %mk.kdone96, %mk.body90
  %503 = add i64 %487, 2
  br label %mk.i89

mk.k94:                                           ; preds = %mk.kbody95, %mk.work92
  %k97 = phi i64 [ 0, %mk.work92 ], [ %526, %mk.kbody95 ]
  %acc98 = phi <8 x float> [ %497, %mk.work92 ], [ %517, %mk.kbody95 ]
  %acc99 = phi <8 x float> [ %502, %mk.work92 ], [ %525, %mk.kbody95 ]
  %504 = icmp slt i64 %k97, 16
  br i1 %504, label %mk.kbody95, label %mk.kdone96

mk.kbody95:                                       ; preds = %mk.k94
  %505 = mul i64 %k97, 16
  %506 = add i64 %505, 8
  %507 = add i64 0, %506
  %508 = getelementptr float, ptr %mma.b, i64 %507
  %509 = load <8 x float>, ptr %508, align 4
  %510 = add i64 %487, 0
  %511 = mul i64 %510, 16
  %512 = add i64 %511, %k97
  %513 = getelementptr float, ptr %mma.a, i64 %512
  %514 = load float, ptr %513, align 4
  %515 = insertelement <8 x float> poison, float %514, i32 0
  %516 = shufflevector <8 x float> %515, <8 x float> poison, <8 x i32> zeroinitializer
  %517 = call <8 x float> @llvm.fma.v8f32(<8 x float> %516, <8 x float> %509, <8 x float> %acc98)
  %518 = add i64 %487, 1
  %519 = mul i64 %518, 16
  %520 = add i64 %519, %k97
  %521 = getelementptr float, ptr %mma.a, i64 %520
  %522 = load float, ptr %521, align 4
  %523 = insertelement <8 x float> poison, float %522, i32 0
  %524 = shufflevector <8 x float> %523, <8 x float> poison, <8 x i32> zeroinitializer
  %525 = call <8 x float> @llvm.fma.v8f32(<8 x float> %524, <8 x float> %509, <8 x float> %acc99)
  %526 = add i64 %k97, 1
  br label %mk.k94

mk.kdone96:                                       ; preds = %mk.k94
  %527 = add i64 %487, 0
  %528 = mul i64 %527, 16
  %529 = add i64 %528, 8
  %530 = getelementptr float, ptr %acc, i64 %529
  store <8 x float> %acc98, ptr %530, align 4
  %531 = add i64 %487, 1
  %532 = mul i64 %531, 16
  %533 = add i64 %532, 8
  %534 = getelementptr float, ptr %acc, i64 %533
  store <8 x float> %acc99, ptr %534, align 4
  br label %mk.next93

mk.i100:                                          ; preds = %mk.kdone105, %mk.else
  %535 = phi i64 [ 0, %mk.else ], [ %578, %mk.kdone105 ]
  %536 = icmp slt i64 %535, 16
  br i1 %536, label %mk.body101, label %mk.done102

mk.body101:                                       ; preds = %mk.i100
  %537 = add i64 %535, 0
  %538 = mul i64 %537, 16
  %539 = add i64 %538, 0
  %540 = getelementptr float, ptr %acc, i64 %539
  %541 = load <8 x float>, ptr %540, align 4
  %542 = add i64 %535, 1
  %543 = mul i64 %542, 16
  %544 = add i64 %543, 0
  %545 = getelementptr float, ptr %acc, i64 %544
  %546 = load <8 x float>, ptr %545, align 4
  br label %mk.k103

mk.done102:                                       ; preds = %mk.i100
  br label %mk.i109

mk.k103:                                          ; preds = %mk.kbody104, %mk.body101
  %k106 = phi i64 [ 0, %mk.body101 ], [ %569, %mk.kbody104 ]
  %acc107 = phi <8 x float> [ %541, %mk.body101 ], [ %560, %mk.kbody104 ]
  %acc108 = phi <8 x float> [ %546, %mk.body101 ], [ %568, %mk.kbody104 ]
  %547 = icmp slt i64 %k106, 16
  br i1 %547, label %mk.kbody104, label %mk.kdone105

mk.kbody104:                                      ; preds = %mk.k103
  %548 = mul i64 %k106, 16
  %549 = add i64 %548, 0
  %550 = add i64 0, %549
  %551 = getelementptr float, ptr %mma.b, i64 %550
  %552 = load <8 x float>, ptr %551, align 4
  %553 = add i64 %535, 0
  %554 = mul i64 %553, 16
  %555 = add i64 %554, %k106
  %556 = getelementptr float, ptr %mma.a, i64 %555
  %557 = load float, ptr %556, align 4
  %558 = insertelement <8 x float> poison, float %557, i32 0
  %559 = shufflevector <8 x float> %558, <8 x float> poison, <8 x i32> zeroinitializer
  %560 = call <8 x float> @llvm.fma.v8f32(<8 x float> %559, <8 x float> %552, <8 x float> %acc107)
  %561 = add i64 %535, 1
  %562 = mul i64 %561, 16
  %563 = add i64 %562, %k106
  %564 = getelementptr float, ptr %mma.a, i64 %563
  %565 = load float, ptr %564, align 4
  %566 = insertelement <8 x float> poison, float %565, i32 0
  %567 = shufflevector <8 x float> %566, <8 x float> poison, <8 x i32> zeroinitializer
  %568 = call <8 x float> @llvm.fma.v8f32(<8 x float> %567, <8 x float> %552, <8 x float> %acc108)
  %569 = add i64 %k106, 1
  br label %mk.k103

mk.kdone105:                                      ; preds = %mk.k103
  %570 = add i64 %535, 0
  %571 = mul i64 %570, 16
  %572 = add i64 %571, 0
  %573 = getelementptr float, ptr %acc, i64 %572
  store <8 x float> %acc107, ptr %573, align 4
  %574 = add i64 %535, 1
  %575 = mul i64 %574, 16
  %576 = add i64 %575, 0
  %577 = getelementptr float, ptr %acc, i64 %576
  store <8 x float> %acc108, ptr %577, align 4
  %578 = add i64 %535, 2
  br label %mk.i100

mk.i109:                                          ; preds = %mk.kdone114, %mk.done102
  %579 = phi i64 [ 0, %mk.done102 ], [ %622, %mk.kdone114 ]
  %580 = icmp slt i64 %579, 16
  br i1 %580, label %mk.body110, label %mk.done111

mk.body110:                                       ; preds = %mk.i109
  %581 = add i64 %579, 0
  %582 = mul i64 %581, 16
  %583 = add i64 %582, 8
  %584 = getelementptr float, ptr %acc, i64 %583
  %585 = load <8 x float>, ptr %584, align 4
  %586 = add i64 %579, 1
  %587 = mul i64 %586, 16
  %588 = add i64 %587, 8
  %589 = getelementptr float, ptr %acc, i64 %588
  %590 = load <8 x float>, ptr %589, align 4
  br label %mk.k112

mk.done111:                                       ; preds = %mk.i109
  br label %mk.blocksdone

mk.k112:                                          ; preds = %mk.kbody113, %mk.body110
  %k115 = phi i64 [ 0, %mk.body110 ], [ %613, %mk.kbody113 ]
  %acc116 = phi <8 x float> [ %585, %mk.body110 ], [ %604, %mk.kbody113 ]
  %acc117 = phi <8 x float> [ %590, %mk.body110 ], [ %612, %mk.kbody113 ]
  %591 = icmp slt i64 %k115, 16
  br i1 %591, label %mk.kbody113, label %mk.kdone114

mk.kbody113:                                      ; preds = %mk.k112
  %592 = mul i64 %k115, 16
  %593 = add i64 %592, 8
  %594 = add i64 0, %593
  %595 = getelementptr float, ptr %mma.b, i64 %594
  %596 = load <8 x float>, ptr %595, align 4
  %597 = add i64 %579, 0
  %598 = mul i64 %597, 16
  %599 = add i64 %598, %k115
  %600 = getelementptr float, ptr %mma.a, i64 %599
  %601 = load float, ptr %600, align 4
  %602 = insertelement <8 x float> poison, float %601, i32 0
  %603 = shufflevector <8 x float> %602, <8 x float> poison, <8 x i32> zeroinitializer
  %604 = call <8 x float> @llvm.fma.v8f32(<8 x float> %603, <8 x float> %596, <8 x float> %acc116)
  %605 = add i64 %579, 1
  %606 = mul i64 %605, 16
  %607 = add i64 %606, %k115
  %608 = getelementptr float, ptr %mma.a, i64 %607
  %609 = load float, ptr %608, align 4
  %610 = insertelement <8 x float> poison, float %609, i32 0
  %611 = shufflevector <8 x float> %610, <8 x float> poison, <8 x i32> zeroinitializer
  %612 = call <8 x float> @llvm.fma.v8f32(<8 x float> %611, <8 x float> %596, <8 x float> %acc117)
  %613 = add i64 %k115, 1
  br label %mk.k112

mk.kdone114:                                      ; preds = %mk.k112
  %614 = add i64 %579, 0
  %615 = mul i64 %614, 16
  %616 = add i64 %615, 8
  %617 = getelementptr float, ptr %acc, i64 %616
  store <8 x float> %acc116, ptr %617, align 4
  %618 = add i64 %579, 1
  %619 = mul i64 %618, 16
  %620 = add i64 %619, 8
  %621 = getelementptr float, ptr %acc, i64 %620
  store <8 x float> %acc117, ptr %621, align 4
  %622 = add i64 %579, 2
  br label %mk.i109

gl.inside118:                                     ; preds = %mk.blocksdone
  %623 = mul i64 0, %213
  %624 = add i64 %623, %223
  br label %in.row121

gl.edge119:                                       ; preds = %mk.blocksdone
  br label %gl.row129

gl.done120:                                       ; preds = %done131, %done123
  ret void

in.row121:                                        ; preds = %done127, %gl.inside118
  %i124 = phi i64 [ 0, %gl.inside118 ], [ %637, %done127 ]
  %625 = icmp slt i64 %i124, 16
  br i1 %625, label %body122, label %done123

body122:                                          ; preds = %in.row121
  %626 = add i64 %624, %i124
  %627 = mul i64 %626, %217
  %628 = add i64 %627, %229
  br label %in.col125

done123:                                          ; preds = %in.row121
  br label %gl.done120

in.col125:                                        ; preds = %body126, %body122
  %i128 = phi i64 [ 0, %body122 ], [ %636, %body126 ]
  %629 = icmp slt i64 %i128, 16
  br i1 %629, label %body126, label %done127

body126:                                          ; preds = %in.col125
  %630 = mul i64 %i124, 16
  %631 = add i64 %630, %i128
  %632 = add i64 %628, %i128
  %633 = getelementptr float, ptr %acc, i64 %631
  %634 = load float, ptr %633, align 4
  %635 = getelementptr float, ptr %C, i64 %632
  store float %634, ptr %635, align 4
  %636 = add i64 %i128, 1
  br label %in.col125

done127:                                          ; preds = %in.col125
  %637 = add i64 %i124, 1
  br label %in.row121

gl.row129:                                        ; preds = %done135, %gl.edge119
  %i132 = phi i64 [ 0, %gl.edge119 ], [ %665, %done135 ]
  %638 = icmp slt i64 %i132, 16
  br i1 %638, label %body130, label %done131

body130:                                          ; preds = %gl.row129
  %639 = add i64 %223, %i132
  %640 = icmp slt i64 %639, %213
  %641 = icmp sge i64 %639, 0
  %642 = and i1 %641, %640
  %643 = and i1 true, %642
  %644 = mul i64 0, %213
  %645 = add i64 %644, %639
  %646 = mul i64 %645, %217
  %647 = sub i64 0, %229
  %648 = icmp sgt i64 %647, 0
  %649 = select i1 %648, i64 %647, i64 0
  %650 = sub i64 %217, %229
  %651 = icmp slt i64 %650, 16
  %652 = select i1 %651, i64 %650, i64 16
  %653 = select i1 %643, i64 %652, i64 0
  %654 = sub i64 %653, %649
  br label %gl.col133

done131:                                          ; preds = %gl.row129
  br label %gl.done120

gl.col133:                                        ; preds = %body134, %body130
  %i136 = phi i64 [ 0, %body130 ], [ %664, %body134 ]
  %655 = icmp slt i64 %i136, %654
  br i1 %655, label %body134, label %done135

body134:                                          ; preds = %gl.col133
  %656 = add i64 %i136, %649
  %657 = mul i64 %i132, 16
  %658 = add i64 %657, %656
  %659 = add i64 %229, %656
  %660 = add i64 %646, %659
  %661 = getelementptr float, ptr %acc, i64 %658
  %662 = load float, ptr %661, align 4
  %663 = getelementptr float, ptr %C, i64 %660
  store float %662, ptr %663, align 4
  %664 = add i64 %i136, 1
  br label %gl.col133

done135:                                          ; preds = %gl.col133
  %665 = add i64 %i132, 1
  br label %gl.row129
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

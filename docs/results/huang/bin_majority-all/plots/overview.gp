# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1199,932 font "sans,11" noenhanced
} else {
  set terminal svg size 1199,932 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [16.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("rope" 0, "fire" 1, "xpos" 2, "cope" 3, "path" 4, "transformer_xl" 5, "pope" 6, "kerple_power" 7, "t5" 8, "kerple_log" 9, "fox" 10, "stickbreaking" 11, "alibi" 12, "rbf" 13, "cyclic" 14, "fourier2d" 15, "sinusoidal" 16)
# band 1: bin_majority .. bin_majority
unset label
unset arrow
unset object
set lmargin at screen 0.1209341118; set rmargin at screen 0.8582151793; set bmargin at screen 0.04721030043; set tmargin at screen 0.8862660944
set xrange [-0.5:3.5]
set label 1 "Overview: final accuracy, mean over 5 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9763948498 center font ",13"
set colorbox user origin screen 0.8748957465, screen 0.04721030043 size screen 0.02001668057, screen 0.839055794
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.1209341118, screen 0.02145922747 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (1-50)" 0, "51" 1, "3x (150)" 2, "mean 51-150 (100 lengths)" 3)
set label 3 "bin_majority" at first 1.5, screen 0.9356223176 center font ",11"
set label 4 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 5 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "1.000\n[1.00, 1.00]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 8 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 9 "1.000\n[1.00, 1.00]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 10 "1.000\n[1.00, 1.00]" at 2,1 center front textcolor rgb "#ffffff" font ",10"
set label 11 "1.000\n[1.00, 1.00]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 12 "1.000\n[1.00, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 13 "1.000\n[1.00, 1.00]" at 1,2 center front textcolor rgb "#ffffff" font ",10"
set label 14 "1.000\n[1.00, 1.00]" at 2,2 center front textcolor rgb "#ffffff" font ",10"
set label 15 "1.000\n[1.00, 1.00]" at 3,2 center front textcolor rgb "#ffffff" font ",10"
set label 16 "1.000\n[1.00, 1.00]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 17 "1.000\n[1.00, 1.00]" at 1,3 center front textcolor rgb "#ffffff" font ",10"
set label 18 "1.000\n[1.00, 1.00]" at 2,3 center front textcolor rgb "#ffffff" font ",10"
set label 19 "1.000\n[1.00, 1.00]" at 3,3 center front textcolor rgb "#ffffff" font ",10"
set label 20 "1.000\n[1.00, 1.00]" at 0,4 center front textcolor rgb "#ffffff" font ",10"
set label 21 "1.000\n[1.00, 1.00]" at 1,4 center front textcolor rgb "#ffffff" font ",10"
set label 22 "1.000\n[1.00, 1.00]" at 2,4 center front textcolor rgb "#ffffff" font ",10"
set label 23 "1.000\n[1.00, 1.00]" at 3,4 center front textcolor rgb "#ffffff" font ",10"
set label 24 "1.000\n[1.00, 1.00]" at 0,5 center front textcolor rgb "#ffffff" font ",10"
set label 25 "1.000\n[1.00, 1.00]" at 1,5 center front textcolor rgb "#ffffff" font ",10"
set label 26 "1.000\n[1.00, 1.00]" at 2,5 center front textcolor rgb "#ffffff" font ",10"
set label 27 "1.000\n[1.00, 1.00]" at 3,5 center front textcolor rgb "#ffffff" font ",10"
set label 28 "1.000\n[1.00, 1.00]" at 0,6 center front textcolor rgb "#ffffff" font ",10"
set label 29 "1.000\n[1.00, 1.00]" at 1,6 center front textcolor rgb "#ffffff" font ",10"
set label 30 "1.000\n[1.00, 1.00]" at 2,6 center front textcolor rgb "#ffffff" font ",10"
set label 31 "1.000\n[1.00, 1.00]" at 3,6 center front textcolor rgb "#ffffff" font ",10"
set label 32 "1.000\n[1.00, 1.00]" at 0,7 center front textcolor rgb "#ffffff" font ",10"
set label 33 "1.000\n[1.00, 1.00]" at 1,7 center front textcolor rgb "#ffffff" font ",10"
set label 34 "1.000\n[1.00, 1.00]" at 2,7 center front textcolor rgb "#ffffff" font ",10"
set label 35 "1.000\n[1.00, 1.00]" at 3,7 center front textcolor rgb "#ffffff" font ",10"
set label 36 "1.000\n[1.00, 1.00]" at 0,8 center front textcolor rgb "#ffffff" font ",10"
set label 37 "1.000\n[1.00, 1.00]" at 1,8 center front textcolor rgb "#ffffff" font ",10"
set label 38 "1.000\n[1.00, 1.00]" at 2,8 center front textcolor rgb "#ffffff" font ",10"
set label 39 "0.999\n[1.00, 1.00]" at 3,8 center front textcolor rgb "#ffffff" font ",10"
set label 40 "1.000\n[1.00, 1.00]" at 0,9 center front textcolor rgb "#ffffff" font ",10"
set label 41 "1.000\n[1.00, 1.00]" at 1,9 center front textcolor rgb "#ffffff" font ",10"
set label 42 "0.997\n[0.99, 1.00]" at 2,9 center front textcolor rgb "#ffffff" font ",10"
set label 43 "0.999\n[1.00, 1.00]" at 3,9 center front textcolor rgb "#ffffff" font ",10"
set label 44 "1.000\n[1.00, 1.00]" at 0,10 center front textcolor rgb "#ffffff" font ",10"
set label 45 "1.000\n[1.00, 1.00]" at 1,10 center front textcolor rgb "#ffffff" font ",10"
set label 46 "0.997\n[0.99, 1.00]" at 2,10 center front textcolor rgb "#ffffff" font ",10"
set label 47 "0.999\n[1.00, 1.00]" at 3,10 center front textcolor rgb "#ffffff" font ",10"
set label 48 "1.000\n[1.00, 1.00]" at 0,11 center front textcolor rgb "#ffffff" font ",10"
set label 49 "1.000\n[1.00, 1.00]" at 1,11 center front textcolor rgb "#ffffff" font ",10"
set label 50 "0.997\n[0.99, 1.00]" at 2,11 center front textcolor rgb "#ffffff" font ",10"
set label 51 "0.999\n[1.00, 1.00]" at 3,11 center front textcolor rgb "#ffffff" font ",10"
set label 52 "1.000\n[1.00, 1.00]" at 0,12 center front textcolor rgb "#ffffff" font ",10"
set label 53 "1.000\n[1.00, 1.00]" at 1,12 center front textcolor rgb "#ffffff" font ",10"
set label 54 "0.997\n[0.99, 1.00]" at 2,12 center front textcolor rgb "#ffffff" font ",10"
set label 55 "0.999\n[1.00, 1.00]" at 3,12 center front textcolor rgb "#ffffff" font ",10"
set label 56 "1.000\n[1.00, 1.00]" at 0,13 center front textcolor rgb "#ffffff" font ",10"
set label 57 "0.990\n[0.98, 1.00]" at 1,13 center front textcolor rgb "#ffffff" font ",10"
set label 58 "0.968\n[0.93, 1.00]" at 2,13 center front textcolor rgb "#ffffff" font ",10"
set label 59 "0.986\n[0.98, 0.99]" at 3,13 center front textcolor rgb "#ffffff" font ",10"
set label 60 "1.000\n[1.00, 1.00]" at 0,14 center front textcolor rgb "#ffffff" font ",10"
set label 61 "1.000\n[1.00, 1.00]" at 1,14 center front textcolor rgb "#ffffff" font ",10"
set label 62 "0.823\n[0.64, 0.99]" at 2,14 center front textcolor rgb "#ffffff" font ",10"
set label 63 "✗" at 2.45,13.88 right front textcolor rgb "#D55E00" font ",12"
set label 64 "0.880\n[0.74, 0.99]" at 3,14 center front textcolor rgb "#ffffff" font ",10"
set label 65 "✗" at 3.45,13.88 right front textcolor rgb "#D55E00" font ",12"
set label 66 "1.000\n[1.00, 1.00]" at 0,15 center front textcolor rgb "#ffffff" font ",10"
set label 67 "1.000\n[1.00, 1.00]" at 1,15 center front textcolor rgb "#ffffff" font ",10"
set label 68 "0.745\n[0.54, 0.95]" at 2,15 center front textcolor rgb "#111111" font ",10"
set label 69 "✗" at 2.45,14.88 right front textcolor rgb "#D55E00" font ",12"
set label 70 "0.821\n[0.72, 0.90]" at 3,15 center front textcolor rgb "#ffffff" font ",10"
set label 71 "✗" at 3.45,14.88 right front textcolor rgb "#D55E00" font ",12"
set label 72 "1.000\n[1.00, 1.00]" at 0,16 center front textcolor rgb "#ffffff" font ",10"
set label 73 "0.997\n[0.99, 1.00]" at 1,16 center front textcolor rgb "#ffffff" font ",10"
set label 74 "0.265\n[0.22, 0.32]" at 2,16 center front textcolor rgb "#111111" font ",10"
set label 75 "✗" at 2.45,15.88 right front textcolor rgb "#D55E00" font ",12"
set label 76 "0.452\n[0.42, 0.48]" at 3,16 center front textcolor rgb "#111111" font ",10"
set label 77 "✗" at 3.45,15.88 right front textcolor rgb "#D55E00" font ",12"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}

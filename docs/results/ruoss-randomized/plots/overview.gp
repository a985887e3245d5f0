# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 2667,690 font "sans,11" noenhanced
} else {
  set terminal svg size 2667,690 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [4.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("transformer_xl" 0, "rope" 1, "alibi" 2, "learned" 3, "sinusoidal" 4)
# band 1: even_pairs .. stack_manipulation
unset label
unset arrow
unset object
set lmargin at screen 0.05436820397; set rmargin at screen 0.9362579678; set bmargin at screen 0.5130434783; set tmargin at screen 0.8463768116
set xrange [-0.5:11.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.968115942 center font ",13"
set colorbox user origin screen 0.9437570304, screen 0.5130434783 size screen 0.008998875141, screen 0.3333333333
set x2tics ("train (1-40)" 0, "41" 1, "491" 2, "mean 41-491 (47 lengths)" 3, "train (1-40)" 4, "41" 5, "491" 6, "mean 41-491 (47 lengths)" 7, "train (1-40)" 8, "41" 9, "491" 10, "mean 41-491 (47 lengths)" 11)
set label 2 "even_pairs" at first 1.5, screen 0.9130434783 center font ",11"
set label 3 "cycle_navigation" at first 5.5, screen 0.9130434783 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 4 "stack_manipulation" at first 9.5, screen 0.9130434783 center font ",11"
set arrow from 7.5, graph 0 to 7.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "0.702\n[0.69, 0.71]" at 0,0 center front textcolor rgb "#111111" font ",10"
set label 6 "✗" at 0.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 0.5,-0.5 to 1.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 7 "not learned" at 1,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 1.5,-0.5 to 2.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 8 "not learned" at 2,0 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 2.5,-0.5 to 3.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 9 "not learned" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 10 "0.604\n[0.22, 0.81]" at 4,0 center front textcolor rgb "#111111" font ",10"
set label 11 "✗" at 4.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 12 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 5.5,-0.5 to 6.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 6,0 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 15 "0.671\n[0.65, 0.69]" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 16 "✗" at 8.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 8.5,-0.5 to 9.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 17 "not learned" at 9,0 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 9.5,-0.5 to 10.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 18 "not learned" at 10,0 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 10.5,-0.5 to 11.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 11,0 center front textcolor rgb "#111111" font ",10"
set label 20 "0.676\n[0.55, 0.80]" at 0,1 center front textcolor rgb "#111111" font ",10"
set label 21 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 0.5,0.5 to 1.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 22 "not learned" at 1,1 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 1.5,0.5 to 2.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 23 "not learned" at 2,1 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 2.5,0.5 to 3.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 24 "not learned" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 25 "0.627\n[0.22, 0.84]" at 4,1 center front textcolor rgb "#111111" font ",10"
set label 26 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 27 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 5.5,0.5 to 6.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 6,1 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 29 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 30 "0.573\n[0.56, 0.58]" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 31 "✗" at 8.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 8.5,0.5 to 9.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 32 "not learned" at 9,1 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 9.5,0.5 to 10.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 10,1 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 10.5,0.5 to 11.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 11,1 center front textcolor rgb "#111111" font ",10"
set label 35 "0.496\n[0.49, 0.50]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set object 21 rect from 2.5,1.5 to 3.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 40 "0.262\n[0.25, 0.28]" at 4,2 center front textcolor rgb "#111111" font ",10"
set label 41 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 22 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set object 23 rect from 5.5,1.5 to 6.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 6,2 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 45 "0.638\n[0.63, 0.65]" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 46 "✗" at 8.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 25 rect from 8.5,1.5 to 9.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 47 "not learned" at 9,2 center front textcolor rgb "#111111" font ",10"
set object 26 rect from 9.5,1.5 to 10.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 48 "not learned" at 10,2 center front textcolor rgb "#111111" font ",10"
set object 27 rect from 10.5,1.5 to 11.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 49 "not learned" at 11,2 center front textcolor rgb "#111111" font ",10"
set label 50 "0.566\n[0.55, 0.57]" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 51 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 28 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 52 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 29 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 53 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 30 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 54 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 55 "0.449\n[0.23, 0.75]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 56 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 31 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 57 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 32 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 58 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 33 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 59 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set label 60 "0.488\n[0.48, 0.49]" at 8,3 center front textcolor rgb "#111111" font ",10"
set label 61 "✗" at 8.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 34 rect from 8.5,2.5 to 9.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 62 "not learned" at 9,3 center front textcolor rgb "#111111" font ",10"
set object 35 rect from 9.5,2.5 to 10.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 63 "not learned" at 10,3 center front textcolor rgb "#111111" font ",10"
set object 36 rect from 10.5,2.5 to 11.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 64 "not learned" at 11,3 center front textcolor rgb "#111111" font ",10"
set label 65 "0.499\n[0.49, 0.50]" at 0,4 center front textcolor rgb "#111111" font ",10"
set label 66 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 37 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 67 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 38 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 68 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set object 39 rect from 2.5,3.5 to 3.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 69 "not learned" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 70 "0.216\n[0.19, 0.24]" at 4,4 center front textcolor rgb "#111111" font ",10"
set label 71 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 40 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 72 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set object 41 rect from 5.5,3.5 to 6.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 73 "not learned" at 6,4 center front textcolor rgb "#111111" font ",10"
set object 42 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set label 75 "0.376\n[0.30, 0.42]" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 76 "✗" at 8.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 43 rect from 8.5,3.5 to 9.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 77 "not learned" at 9,4 center front textcolor rgb "#111111" font ",10"
set object 44 rect from 9.5,3.5 to 10.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 10,4 center front textcolor rgb "#111111" font ",10"
set object 45 rect from 10.5,3.5 to 11.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 79 "not learned" at 11,4 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
# band 2: modular_arithmetic_brackets .. odds_first
unset label
unset arrow
unset object
set lmargin at screen 0.05436820397; set rmargin at screen 0.9362579678; set bmargin at screen 0.06376811594; set tmargin at screen 0.3971014493
set xrange [-0.5:11.5]
unset colorbox
set label 1 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.05436820397, screen 0.02898550725 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (1-40)" 0, "41" 1, "491" 2, "mean 41-491 (47 lengths)" 3, "train (1-40)" 4, "41" 5, "491" 6, "mean 41-491 (47 lengths)" 7, "train (1-40)" 8, "41" 9, "491" 10, "mean 41-491 (47 lengths)" 11)
set label 2 "modular_arithmetic_brackets" at first 1.5, screen 0.4637681159 center font ",11"
set label 3 "missing_duplicate" at first 5.5, screen 0.4637681159 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 4 "odds_first" at first 9.5, screen 0.4637681159 center font ",11"
set arrow from 7.5, graph 0 to 7.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "0.368\n[0.35, 0.38]" at 0,0 center front textcolor rgb "#111111" font ",10"
set label 6 "✗" at 0.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 0.5,-0.5 to 1.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 7 "not learned" at 1,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 1.5,-0.5 to 2.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 8 "not learned" at 2,0 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 2.5,-0.5 to 3.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 9 "not learned" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 10 "0.701\n[0.68, 0.71]" at 4,0 center front textcolor rgb "#111111" font ",10"
set label 11 "✗" at 4.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 12 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 5.5,-0.5 to 6.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 6,0 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 15 "0.586\n[0.58, 0.59]" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 16 "✗" at 8.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 8.5,-0.5 to 9.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 17 "not learned" at 9,0 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 9.5,-0.5 to 10.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 18 "not learned" at 10,0 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 10.5,-0.5 to 11.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 11,0 center front textcolor rgb "#111111" font ",10"
set label 20 "0.359\n[0.35, 0.36]" at 0,1 center front textcolor rgb "#111111" font ",10"
set label 21 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 0.5,0.5 to 1.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 22 "not learned" at 1,1 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 1.5,0.5 to 2.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 23 "not learned" at 2,1 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 2.5,0.5 to 3.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 24 "not learned" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 25 "0.575\n[0.54, 0.63]" at 4,1 center front textcolor rgb "#111111" font ",10"
set label 26 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 27 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 5.5,0.5 to 6.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 6,1 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 29 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 30 "0.587\n[0.58, 0.59]" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 31 "✗" at 8.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 8.5,0.5 to 9.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 32 "not learned" at 9,1 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 9.5,0.5 to 10.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 10,1 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 10.5,0.5 to 11.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 11,1 center front textcolor rgb "#111111" font ",10"
set label 35 "0.350\n[0.33, 0.38]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set object 21 rect from 2.5,1.5 to 3.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 40 "0.658\n[0.64, 0.69]" at 4,2 center front textcolor rgb "#111111" font ",10"
set label 41 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 22 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set object 23 rect from 5.5,1.5 to 6.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 6,2 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 45 "0.588\n[0.59, 0.59]" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 46 "✗" at 8.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 25 rect from 8.5,1.5 to 9.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 47 "not learned" at 9,2 center front textcolor rgb "#111111" font ",10"
set object 26 rect from 9.5,1.5 to 10.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 48 "not learned" at 10,2 center front textcolor rgb "#111111" font ",10"
set object 27 rect from 10.5,1.5 to 11.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 49 "not learned" at 11,2 center front textcolor rgb "#111111" font ",10"
set label 50 "0.338\n[0.32, 0.35]" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 51 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 28 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 52 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 29 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 53 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 30 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 54 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 55 "0.601\n[0.60, 0.61]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 56 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 31 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 57 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 32 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 58 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 33 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 59 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set label 60 "0.584\n[0.58, 0.59]" at 8,3 center front textcolor rgb "#111111" font ",10"
set label 61 "✗" at 8.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 34 rect from 8.5,2.5 to 9.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 62 "not learned" at 9,3 center front textcolor rgb "#111111" font ",10"
set object 35 rect from 9.5,2.5 to 10.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 63 "not learned" at 10,3 center front textcolor rgb "#111111" font ",10"
set object 36 rect from 10.5,2.5 to 11.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 64 "not learned" at 11,3 center front textcolor rgb "#111111" font ",10"
set label 65 "0.305\n[0.27, 0.34]" at 0,4 center front textcolor rgb "#111111" font ",10"
set label 66 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 37 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 67 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 38 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 68 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set object 39 rect from 2.5,3.5 to 3.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 69 "not learned" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 70 "0.572\n[0.56, 0.59]" at 4,4 center front textcolor rgb "#111111" font ",10"
set label 71 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 40 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 72 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set object 41 rect from 5.5,3.5 to 6.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 73 "not learned" at 6,4 center front textcolor rgb "#111111" font ",10"
set object 42 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set label 75 "0.585\n[0.58, 0.59]" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 76 "✗" at 8.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 43 rect from 8.5,3.5 to 9.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 77 "not learned" at 9,4 center front textcolor rgb "#111111" font ",10"
set object 44 rect from 9.5,3.5 to 10.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 10,4 center front textcolor rgb "#111111" font ",10"
set object 45 rect from 10.5,3.5 to 11.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 79 "not learned" at 11,4 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 1 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}

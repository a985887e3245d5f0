# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 2667,782 font "sans,11" noenhanced
} else {
  set terminal svg size 2667,782 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [5.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("transformer_xl" 0, "rope" 1, "alibi" 2, "learned" 3, "none" 4, "sinusoidal" 5)
# band 1: even_pairs .. stack_manipulation
unset label
unset arrow
unset object
set lmargin at screen 0.05436820397; set rmargin at screen 0.9362579678; set bmargin at screen 0.5115089514; set tmargin at screen 0.8644501279
set xrange [-0.5:11.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9718670077 center font ",13"
set colorbox user origin screen 0.9437570304, screen 0.5115089514 size screen 0.008998875141, screen 0.3529411765
set x2tics ("train (1-40)" 0, "41" 1, "491" 2, "mean 41-491 (47 lengths)" 3, "train (1-40)" 4, "41" 5, "491" 6, "mean 41-491 (47 lengths)" 7, "train (1-40)" 8, "41" 9, "491" 10, "mean 41-491 (47 lengths)" 11)
set label 2 "even_pairs" at first 1.5, screen 0.9232736573 center font ",11"
set label 3 "cycle_navigation" at first 5.5, screen 0.9232736573 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 4 "stack_manipulation" at first 9.5, screen 0.9232736573 center font ",11"
set arrow from 7.5, graph 0 to 7.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "0.594\n[0.53, 0.72]" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 8 "✗" at 2.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 9 "0.625\n[0.61, 0.66]" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 10 "✗" at 3.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 11 "0.852\n[0.84, 0.86]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "✗" at 4.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 5.5,-0.5 to 6.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 6,0 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 15 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 16 "0.806\n[0.78, 0.84]" at 8,0 center front textcolor rgb "#ffffff" font ",10"
set label 17 "✗" at 8.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 8.5,-0.5 to 9.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 18 "not learned" at 9,0 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 9.5,-0.5 to 10.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 10,0 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 10.5,-0.5 to 11.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 20 "not learned" at 11,0 center front textcolor rgb "#111111" font ",10"
set label 21 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 22 "1.000\n[1.00, 1.00]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 23 "0.521\n[0.44, 0.56]" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 24 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 25 "0.512\n[0.49, 0.53]" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 26 "✗" at 3.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 27 "0.859\n[0.84, 0.89]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 28 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 29 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 5.5,0.5 to 6.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 30 "not learned" at 6,1 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 31 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 32 "0.677\n[0.67, 0.69]" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 33 "✗" at 8.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 8.5,0.5 to 9.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 9,1 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 9.5,0.5 to 10.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 35 "not learned" at 10,1 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 10.5,0.5 to 11.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 36 "not learned" at 11,1 center front textcolor rgb "#111111" font ",10"
set label 37 "0.693\n[0.60, 0.79]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 38 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 40 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 2.5,1.5 to 3.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 41 "not learned" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 42 "0.771\n[0.55, 0.89]" at 4,2 center front textcolor rgb "#ffffff" font ",10"
set label 43 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 5.5,1.5 to 6.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 45 "not learned" at 6,2 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 46 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 47 "0.757\n[0.73, 0.81]" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 48 "✗" at 8.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 8.5,1.5 to 9.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 49 "not learned" at 9,2 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 9.5,1.5 to 10.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 50 "not learned" at 10,2 center front textcolor rgb "#111111" font ",10"
set object 21 rect from 10.5,1.5 to 11.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 51 "not learned" at 11,2 center front textcolor rgb "#111111" font ",10"
set label 52 "0.803\n[0.73, 0.86]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 53 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 22 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 54 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 23 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 55 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 56 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 57 "0.645\n[0.48, 0.94]" at 4,3 center front textcolor rgb "#ffffff" font ",10"
set label 58 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 25 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 59 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 26 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 60 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 27 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 61 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set label 62 "0.812\n[0.79, 0.83]" at 8,3 center front textcolor rgb "#ffffff" font ",10"
set label 63 "✗" at 8.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 28 rect from 8.5,2.5 to 9.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 64 "not learned" at 9,3 center front textcolor rgb "#111111" font ",10"
set object 29 rect from 9.5,2.5 to 10.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 65 "not learned" at 10,3 center front textcolor rgb "#111111" font ",10"
set object 30 rect from 10.5,2.5 to 11.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 66 "not learned" at 11,3 center front textcolor rgb "#111111" font ",10"
set label 67 "0.571\n[0.57, 0.58]" at 0,4 center front textcolor rgb "#111111" font ",10"
set label 68 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 31 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 69 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 32 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 70 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set object 33 rect from 2.5,3.5 to 3.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 71 "not learned" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 72 "0.656\n[0.22, 0.88]" at 4,4 center front textcolor rgb "#ffffff" font ",10"
set label 73 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 34 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set object 35 rect from 5.5,3.5 to 6.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 75 "not learned" at 6,4 center front textcolor rgb "#111111" font ",10"
set object 36 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 76 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set label 77 "0.550\n[0.55, 0.55]" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 78 "✗" at 8.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 37 rect from 8.5,3.5 to 9.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 79 "not learned" at 9,4 center front textcolor rgb "#111111" font ",10"
set object 38 rect from 9.5,3.5 to 10.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 80 "not learned" at 10,4 center front textcolor rgb "#111111" font ",10"
set object 39 rect from 10.5,3.5 to 11.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 81 "not learned" at 11,4 center front textcolor rgb "#111111" font ",10"
set label 82 "0.493\n[0.49, 0.49]" at 0,5 center front textcolor rgb "#111111" font ",10"
set label 83 "✗" at 0.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 40 rect from 0.5,4.5 to 1.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 84 "not learned" at 1,5 center front textcolor rgb "#111111" font ",10"
set object 41 rect from 1.5,4.5 to 2.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 85 "not learned" at 2,5 center front textcolor rgb "#111111" font ",10"
set object 42 rect from 2.5,4.5 to 3.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 86 "not learned" at 3,5 center front textcolor rgb "#111111" font ",10"
set label 87 "0.521\n[0.30, 0.77]" at 4,5 center front textcolor rgb "#111111" font ",10"
set label 88 "✗" at 4.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 43 rect from 4.5,4.5 to 5.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 89 "not learned" at 5,5 center front textcolor rgb "#111111" font ",10"
set object 44 rect from 5.5,4.5 to 6.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 90 "not learned" at 6,5 center front textcolor rgb "#111111" font ",10"
set object 45 rect from 6.5,4.5 to 7.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 91 "not learned" at 7,5 center front textcolor rgb "#111111" font ",10"
set label 92 "0.577\n[0.54, 0.60]" at 8,5 center front textcolor rgb "#111111" font ",10"
set label 93 "✗" at 8.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 46 rect from 8.5,4.5 to 9.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 94 "not learned" at 9,5 center front textcolor rgb "#111111" font ",10"
set object 47 rect from 9.5,4.5 to 10.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 95 "not learned" at 10,5 center front textcolor rgb "#111111" font ",10"
set object 48 rect from 10.5,4.5 to 11.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 96 "not learned" at 11,5 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
# band 2: modular_arithmetic_brackets .. odds_first
unset label
unset arrow
unset object
set lmargin at screen 0.05436820397; set rmargin at screen 0.9362579678; set bmargin at screen 0.05626598465; set tmargin at screen 0.4092071611
set xrange [-0.5:11.5]
unset colorbox
set label 1 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.05436820397, screen 0.02557544757 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (1-40)" 0, "41" 1, "491" 2, "mean 41-491 (47 lengths)" 3, "train (1-40)" 4, "41" 5, "491" 6, "mean 41-491 (47 lengths)" 7, "train (1-40)" 8, "41" 9, "491" 10, "mean 41-491 (47 lengths)" 11)
set label 2 "modular_arithmetic_brackets" at first 1.5, screen 0.4680306905 center font ",11"
set label 3 "missing_duplicate" at first 5.5, screen 0.4680306905 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 4 "odds_first" at first 9.5, screen 0.4680306905 center font ",11"
set arrow from 7.5, graph 0 to 7.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "0.383\n[0.37, 0.40]" at 0,0 center front textcolor rgb "#111111" font ",10"
set label 6 "✗" at 0.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 0.5,-0.5 to 1.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 7 "not learned" at 1,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 1.5,-0.5 to 2.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 8 "not learned" at 2,0 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 2.5,-0.5 to 3.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 9 "not learned" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 10 "0.780\n[0.62, 0.92]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 11 "✗" at 4.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 12 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 5.5,-0.5 to 6.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 6,0 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 15 "0.602\n[0.59, 0.62]" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 16 "✗" at 8.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 8.5,-0.5 to 9.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 17 "not learned" at 9,0 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 9.5,-0.5 to 10.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 18 "not learned" at 10,0 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 10.5,-0.5 to 11.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 11,0 center front textcolor rgb "#111111" font ",10"
set label 20 "0.377\n[0.36, 0.39]" at 0,1 center front textcolor rgb "#111111" font ",10"
set label 21 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 0.5,0.5 to 1.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 22 "not learned" at 1,1 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 1.5,0.5 to 2.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 23 "not learned" at 2,1 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 2.5,0.5 to 3.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 24 "not learned" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 25 "0.613\n[0.60, 0.62]" at 4,1 center front textcolor rgb "#111111" font ",10"
set label 26 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 27 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 5.5,0.5 to 6.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 6,1 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 29 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 30 "0.585\n[0.58, 0.59]" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 31 "✗" at 8.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 8.5,0.5 to 9.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 32 "not learned" at 9,1 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 9.5,0.5 to 10.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 10,1 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 10.5,0.5 to 11.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 11,1 center front textcolor rgb "#111111" font ",10"
set label 35 "0.377\n[0.35, 0.39]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set object 21 rect from 2.5,1.5 to 3.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 40 "0.824\n[0.74, 0.87]" at 4,2 center front textcolor rgb "#ffffff" font ",10"
set label 41 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 22 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set object 23 rect from 5.5,1.5 to 6.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 6,2 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 45 "0.589\n[0.59, 0.59]" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 46 "✗" at 8.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 25 rect from 8.5,1.5 to 9.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 47 "not learned" at 9,2 center front textcolor rgb "#111111" font ",10"
set object 26 rect from 9.5,1.5 to 10.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 48 "not learned" at 10,2 center front textcolor rgb "#111111" font ",10"
set object 27 rect from 10.5,1.5 to 11.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 49 "not learned" at 11,2 center front textcolor rgb "#111111" font ",10"
set label 50 "0.367\n[0.36, 0.38]" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 51 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 28 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 52 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 29 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 53 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 30 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 54 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 55 "0.626\n[0.61, 0.65]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 56 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 31 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 57 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 32 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 58 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 33 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 59 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set label 60 "0.592\n[0.59, 0.59]" at 8,3 center front textcolor rgb "#111111" font ",10"
set label 61 "✗" at 8.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 34 rect from 8.5,2.5 to 9.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 62 "not learned" at 9,3 center front textcolor rgb "#111111" font ",10"
set object 35 rect from 9.5,2.5 to 10.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 63 "not learned" at 10,3 center front textcolor rgb "#111111" font ",10"
set object 36 rect from 10.5,2.5 to 11.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 64 "not learned" at 11,3 center front textcolor rgb "#111111" font ",10"
set label 65 "0.371\n[0.37, 0.38]" at 0,4 center front textcolor rgb "#111111" font ",10"
set label 66 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 37 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 67 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 38 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 68 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set object 39 rect from 2.5,3.5 to 3.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 69 "not learned" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 70 "0.607\n[0.60, 0.62]" at 4,4 center front textcolor rgb "#111111" font ",10"
set label 71 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 40 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 72 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set object 41 rect from 5.5,3.5 to 6.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 73 "not learned" at 6,4 center front textcolor rgb "#111111" font ",10"
set object 42 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set label 75 "0.585\n[0.58, 0.58]" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 76 "✗" at 8.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 43 rect from 8.5,3.5 to 9.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 77 "not learned" at 9,4 center front textcolor rgb "#111111" font ",10"
set object 44 rect from 9.5,3.5 to 10.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 10,4 center front textcolor rgb "#111111" font ",10"
set object 45 rect from 10.5,3.5 to 11.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 79 "not learned" at 11,4 center front textcolor rgb "#111111" font ",10"
set label 80 "0.332\n[0.32, 0.35]" at 0,5 center front textcolor rgb "#111111" font ",10"
set label 81 "✗" at 0.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 46 rect from 0.5,4.5 to 1.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 82 "not learned" at 1,5 center front textcolor rgb "#111111" font ",10"
set object 47 rect from 1.5,4.5 to 2.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 83 "not learned" at 2,5 center front textcolor rgb "#111111" font ",10"
set object 48 rect from 2.5,4.5 to 3.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 84 "not learned" at 3,5 center front textcolor rgb "#111111" font ",10"
set label 85 "0.617\n[0.61, 0.63]" at 4,5 center front textcolor rgb "#111111" font ",10"
set label 86 "✗" at 4.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 49 rect from 4.5,4.5 to 5.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 87 "not learned" at 5,5 center front textcolor rgb "#111111" font ",10"
set object 50 rect from 5.5,4.5 to 6.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 88 "not learned" at 6,5 center front textcolor rgb "#111111" font ",10"
set object 51 rect from 6.5,4.5 to 7.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 89 "not learned" at 7,5 center front textcolor rgb "#111111" font ",10"
set label 90 "0.595\n[0.59, 0.60]" at 8,5 center front textcolor rgb "#111111" font ",10"
set label 91 "✗" at 8.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 52 rect from 8.5,4.5 to 9.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 92 "not learned" at 9,5 center front textcolor rgb "#111111" font ",10"
set object 53 rect from 9.5,4.5 to 10.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 93 "not learned" at 10,5 center front textcolor rgb "#111111" font ",10"
set object 54 rect from 10.5,4.5 to 11.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 94 "not learned" at 11,5 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 1 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}

# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1853,463 font "sans,11" noenhanced
} else {
  set terminal svg size 1853,463 font "sans,11" noenhanced background "#ffffff"
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
set ytics ("sinusoidal" 0, "rope" 1, "learned" 2, "t5" 3, "alibi" 4, "none" 5)
# band 1: copy .. reverse
unset label
unset arrow
unset object
set lmargin at screen 0.06206152186; set rmargin at screen 0.9082568807; set bmargin at screen 0.1749460043; set tmargin at screen 0.7710583153
set xrange [-0.5:7.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9524838013 center font ",13"
set colorbox user origin screen 0.9190501889, screen 0.1749460043 size screen 0.01295196978, screen 0.596112311
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.06206152186, screen 0.04319654428 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (8-32)" 0, "40" 1, "4x (128)" 2, "mean 40-128 (12 lengths)" 3, "train (8-32)" 4, "40" 5, "4x (128)" 6, "mean 40-128 (12 lengths)" 7)
set label 3 "copy" at first 1.5, screen 0.8704103672 center font ",11"
set label 4 "reverse" at first 5.5, screen 0.8704103672 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "0.163\n[0.16, 0.17]" at 1,0 center front textcolor rgb "#111111" font ",10"
set label 7 "✗" at 1.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 8 "0.139\n[0.12, 0.15]" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 9 "✗" at 2.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 10 "0.139\n[0.14, 0.14]" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 11 "✗" at 3.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 12 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "0.178\n[0.18, 0.18]" at 5,0 center front textcolor rgb "#111111" font ",10"
set label 14 "✗" at 5.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 15 "0.153\n[0.15, 0.16]" at 6,0 center front textcolor rgb "#111111" font ",10"
set label 16 "✗" at 6.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 17 "0.145\n[0.14, 0.15]" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 18 "✗" at 7.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 19 "0.994\n[0.99, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 20 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 21 "0.140\n[0.12, 0.15]" at 1,1 center front textcolor rgb "#111111" font ",10"
set label 22 "✗" at 1.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 23 "0.128\n[0.12, 0.14]" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 24 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 25 "0.157\n[0.15, 0.17]" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 26 "✗" at 3.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 27 "0.997\n[0.99, 1.00]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 28 "0.656\n[0.62, 0.71]" at 5,1 center front textcolor rgb "#ffffff" font ",10"
set label 29 "✗" at 5.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 30 "0.145\n[0.13, 0.16]" at 6,1 center front textcolor rgb "#111111" font ",10"
set label 31 "✗" at 6.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 32 "0.237\n[0.20, 0.26]" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 33 "✗" at 7.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 34 "1.000\n[1.00, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 35 "0.145\n[0.13, 0.17]" at 1,2 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 1.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 37 "0.137\n[0.13, 0.15]" at 2,2 center front textcolor rgb "#111111" font ",10"
set label 38 "✗" at 2.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 39 "0.162\n[0.14, 0.21]" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 40 "✗" at 3.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 41 "0.980\n[0.95, 1.00]" at 4,2 center front textcolor rgb "#ffffff" font ",10"
set label 42 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 43 "0.183\n[0.18, 0.19]" at 5,2 center front textcolor rgb "#111111" font ",10"
set label 44 "✗" at 5.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 45 "0.136\n[0.14, 0.14]" at 6,2 center front textcolor rgb "#111111" font ",10"
set label 46 "✗" at 6.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 47 "0.152\n[0.15, 0.15]" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 48 "✗" at 7.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 49 "0.800\n[0.79, 0.81]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 50 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 51 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 52 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 53 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 54 "0.906\n[0.77, 0.98]" at 4,3 center front textcolor rgb "#ffffff" font ",10"
set label 55 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 56 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 57 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 58 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set label 59 "0.807\n[0.80, 0.81]" at 0,4 center front textcolor rgb "#ffffff" font ",10"
set label 60 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 61 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 62 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 2.5,3.5 to 3.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 63 "not learned" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 64 "0.814\n[0.81, 0.82]" at 4,4 center front textcolor rgb "#ffffff" font ",10"
set label 65 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 66 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 5.5,3.5 to 6.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 67 "not learned" at 6,4 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 68 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set label 69 "0.783\n[0.78, 0.79]" at 0,5 center front textcolor rgb "#ffffff" font ",10"
set label 70 "✗" at 0.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 0.5,4.5 to 1.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 71 "not learned" at 1,5 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 1.5,4.5 to 2.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 72 "not learned" at 2,5 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 2.5,4.5 to 3.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 73 "not learned" at 3,5 center front textcolor rgb "#111111" font ",10"
set label 74 "0.828\n[0.82, 0.84]" at 4,5 center front textcolor rgb "#ffffff" font ",10"
set label 75 "✗" at 4.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 4.5,4.5 to 5.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 76 "not learned" at 5,5 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 5.5,4.5 to 6.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 77 "not learned" at 6,5 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 6.5,4.5 to 7.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 7,5 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}

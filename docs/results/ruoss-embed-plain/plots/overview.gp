# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1853,440 font "sans,11" noenhanced
} else {
  set terminal svg size 1853,440 font "sans,11" noenhanced background "#ffffff"
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
set ytics ("rope" 0, "sinusoidal" 1, "alibi" 2, "learned" 3, "none" 4)
# band 1: even_pairs .. stack_manipulation
unset label
unset arrow
unset object
set lmargin at screen 0.06206152186; set rmargin at screen 0.9082568807; set bmargin at screen 0.2363636364; set tmargin at screen 0.7590909091
set xrange [-0.5:7.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.95 center font ",13"
set colorbox user origin screen 0.9190501889, screen 0.2363636364 size screen 0.01295196978, screen 0.5227272727
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.06206152186, screen 0.04545454545 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (1-40)" 0, "41" 1, "491" 2, "mean 41-491 (47 lengths)" 3, "train (1-40)" 4, "41" 5, "491" 6, "mean 41-491 (47 lengths)" 7)
set label 3 "even_pairs" at first 1.5, screen 0.8636363636 center font ",11"
set label 4 "stack_manipulation" at first 5.5, screen 0.8636363636 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "0.510\n[0.44, 0.56]" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 8 "✗" at 2.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 9 "0.509\n[0.49, 0.52]" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 10 "✗" at 3.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 11 "0.678\n[0.67, 0.69]" at 4,0 center front textcolor rgb "#111111" font ",10"
set label 12 "✗" at 4.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 5.5,-0.5 to 6.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 6,0 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 15 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 16 "0.984\n[0.97, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 17 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 18 "0.698\n[0.66, 0.75]" at 1,1 center front textcolor rgb "#111111" font ",10"
set label 19 "✗" at 1.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 20 "0.469\n[0.44, 0.50]" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 21 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 22 "0.503\n[0.49, 0.51]" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 23 "✗" at 3.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 24 "0.664\n[0.65, 0.68]" at 4,1 center front textcolor rgb "#111111" font ",10"
set label 25 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 26 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 5.5,0.5 to 6.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 27 "not learned" at 6,1 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 29 "0.647\n[0.62, 0.68]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 30 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 31 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 32 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 2.5,1.5 to 3.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 34 "0.766\n[0.73, 0.83]" at 4,2 center front textcolor rgb "#ffffff" font ",10"
set label 35 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 36 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 5.5,1.5 to 6.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 6,2 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 39 "0.508\n[0.49, 0.52]" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 40 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 41 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 44 "0.663\n[0.65, 0.67]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 45 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 46 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 47 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 48 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set label 49 "0.568\n[0.55, 0.58]" at 0,4 center front textcolor rgb "#111111" font ",10"
set label 50 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 51 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 52 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set object 21 rect from 2.5,3.5 to 3.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 53 "not learned" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 54 "0.549\n[0.55, 0.55]" at 4,4 center front textcolor rgb "#111111" font ",10"
set label 55 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 22 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 56 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set object 23 rect from 5.5,3.5 to 6.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 57 "not learned" at 6,4 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 58 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}

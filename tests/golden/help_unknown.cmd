help anaylze

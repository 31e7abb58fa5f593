# TensorFlow custom loop with GradientTape: eager tensors kept in a list hold no tape once it is gone.
import tensorflow as tf

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(10000).batch(128)
test_ds = tf.data.Dataset.from_tensor_slices((x_test / 255.0, y_test)).batch(256)

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(10),
])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(1e-3)

for epoch in range(5):
    losses = []
    for x, y in train_ds:
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = loss_fn(y, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(loss)
    correct = 0
    for x, y in test_ds:
        logits = model(x, training=False)
        correct += int(tf.reduce_sum(tf.cast(tf.argmax(logits, axis=1) == tf.cast(y, tf.int64), tf.int32)))
    print(epoch, float(tf.reduce_mean(losses)), correct / len(x_test))

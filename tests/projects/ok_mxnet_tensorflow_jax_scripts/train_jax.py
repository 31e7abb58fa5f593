# JAX/optax loop: value_and_grad returns plain arrays, so a list of losses keeps nothing alive.
import jax
import jax.numpy as jnp
import optax

from data import batches


def init_params(key, sizes=(784, 256, 10)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (m, n)) * jnp.sqrt(2.0 / m), jnp.zeros(n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def forward(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss_fn(params, x, y):
    logits = forward(params, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


optimizer = optax.adam(1e-3)
params = init_params(jax.random.PRNGKey(0))
opt_state = optimizer.init(params)
losses = []
for epoch in range(10):
    for x, y in batches("mnist", batch_size=128):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        losses.append(loss)
    print(epoch, jnp.mean(jnp.stack(losses[-100:])))
